import type { WindowCount, WindowCounter } from '@mate/server-kit';

/** Addresses refused from memory past which the expired ones are swept out on the next block. */
const SWEEP_ABOVE = 1000;

/**
 * The gateway's per-address rate limit: `points` requests per fixed window, counted in Redis (by
 * `SessionStore.countInWindow`, or with the session check in the same call, `touchCounting`), under
 * the key rate-limiter-flexible's RateLimiterRedis used (`<KEY_PREFIX>:rl:gateway:<address>`). An
 * address that has used up its window is refused from memory until the window ends, so a flood
 * costs Redis nothing (rate-limiter-flexible's `inMemoryBlockOnConsumed`, kept as it was).
 */
export class AddressLimit {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly keyPrefix: string,
    private readonly points: number,
    private readonly windowSeconds: number,
  ) {}

  counter(address: string): WindowCounter {
    return { key: `${this.keyPrefix}:${address}`, windowSeconds: this.windowSeconds };
  }

  /** Ms until the address may be counted again, when it used up its window; 0 otherwise. */
  blockedMs(address: string, now = Date.now()): number {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.blockedUntil.delete(address);
    return 0;
  }

  /**
   * Takes in a count made in Redis: answers the ms before the window ends when the count is over
   * the limit (a refusal), else 0. From the count that reaches the limit on, the address is
   * refused from memory until the window ends.
   */
  refusalMs(address: string, { consumed, msBeforeNext }: WindowCount, now = Date.now()): number {
    if (consumed >= this.points) {
      if (this.blockedUntil.size >= SWEEP_ABOVE) {
        for (const [blocked, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(blocked);
      }
      this.blockedUntil.set(address, now + msBeforeNext);
    }
    return consumed > this.points ? msBeforeNext : 0;
  }
}

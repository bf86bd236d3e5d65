import type { RedisClient } from '../redis/redis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AuthMessages } from '@mate/contracts';
import { type AppException, tooManyRequests } from '../errors/app.exception';
import type { AllowanceCounter, WindowCount } from '../auth/session-store';

export interface RateLimitRule {
  /** How many attempts are allowed... */
  points: number;
  /** ...per this many seconds. */
  durationSeconds: number;
  /** Once exceeded, refuse for this many seconds (defaults to the window). */
  blockSeconds?: number;
}

/**
 * Redis-backed limits shared by every replica. Each named rule counts per key (an IP, an email);
 * exceeding it throws a 429 with Retry-After.
 */
export class RateLimits<Name extends string> {
  private readonly limiters = new Map<Name, RateLimiterRedis>();

  constructor(
    redis: RedisClient,
    prefix: string,
    private readonly rules: Record<Name, RateLimitRule>,
  ) {
    for (const [name, rule] of Object.entries(rules) as [Name, RateLimitRule][]) {
      this.limiters.set(
        name,
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${prefix}:rl:${name}`,
          points: rule.points,
          duration: rule.durationSeconds,
          blockDuration: rule.blockSeconds ?? 0,
          useRedisPackage: false,
        }),
      );
    }
  }

  private limiter(name: Name) {
    const limiter = this.limiters.get(name);
    if (!limiter) throw new Error(`Unknown rate limit ${name}`);
    return limiter;
  }

  async consume(name: Name, key: string, message: string = AuthMessages.tooManyAttempts): Promise<void> {
    try {
      await this.limiter(name).consume(key.toLowerCase());
    } catch (e) {
      if (e instanceof RateLimiterRes) throw tooManyRequests(message, Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
      throw e;
    }
  }

  /**
   * The counters of `names` for one key, in order, for a caller that counts them in a call of its
   * own: the guard's session check (`SessionStore.touchCountingMember`, `@CountedPerMember`), which
   * counts each once and stops after the first past its allowance, as `consume` rule after rule
   * does. The same keys, windows and allowances as `consume`; `refusalOf` reads the counts back.
   */
  allowanceCounters(names: readonly Name[], key: string): AllowanceCounter[] {
    const id = key.toLowerCase();
    return names.map((name) => {
      if (this.rules[name].blockSeconds) throw new Error(`a counted rule keeps no blocks (rule ${name})`);
      const limiter = this.limiter(name);
      return { key: limiter.getKey(id), windowSeconds: this.rules[name].durationSeconds, points: limiter.points };
    });
  }

  /** The 429 for counts of `allowanceCounters(names, …)` when one is past its rule's allowance, else null. */
  refusalOf(names: readonly Name[], counts: readonly WindowCount[], message: string = AuthMessages.tooManyAttempts): AppException | null {
    const over = counts.findIndex((count, i) => count.consumed > this.limiter(names[i]).points);
    return over < 0 ? null : tooManyRequests(message, Math.max(1, Math.ceil(counts[over].msBeforeNext / 1000)));
  }

  /** Refuses without counting, when the key is already over its limit. */
  async check(name: Name, key: string, message: string = AuthMessages.tooManyAttempts): Promise<void> {
    const limiter = this.limiter(name);
    const res = await limiter.get(key.toLowerCase());
    if (res && res.consumedPoints >= limiter.points) {
      throw tooManyRequests(message, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
  }

  /**
   * Counts one failure without refusing; the failure that reaches the limit blocks the key for the
   * rule's `blockSeconds` from that moment (not merely the rest of the window). Pair with `check`.
   */
  async countFailure(name: Name, key: string): Promise<void> {
    const limiter = this.limiter(name);
    const res = await limiter.penalty(key.toLowerCase(), 1);
    if (res.consumedPoints >= limiter.points && limiter.blockDuration > 0) {
      await limiter.block(key.toLowerCase(), limiter.blockDuration);
    }
  }

  async reset(name: Name, key: string): Promise<void> {
    await this.limiter(name).delete(key.toLowerCase());
  }
}

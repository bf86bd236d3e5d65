import { DAY } from '@mate/contracts';
import type { Clock, RedisClient } from '@mate/server-kit';

/** How long a successful sign-in keeps its address known, and how many addresses an account keeps. */
export const KNOWN_ADDRESS_TTL_MS = 90 * DAY;
export const KNOWN_ADDRESSES_PER_ACCOUNT = 20;

/**
 * The addresses (rateLimitAddress keys: an IPv4 address or an IPv6 /64) from which an account has
 * signed in successfully: a sorted set per account, scored by the last success, at most the 20
 * most recent of the last 90 days. While the global brake on an account is on, only these may
 * try the password (issue 7 item 4, ADR 0010): a stranger's 50 failures cannot lock the owner out.
 */
export class KnownAddresses {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  private key(userId: string) {
    return `${this.prefix}:auth:known-addresses:${userId}`;
  }

  /** Records a successful sign-in from `address`, forgetting the oldest beyond the 20 and anything older than 90 days. */
  async remember(userId: string, address: string): Promise<void> {
    const now = this.clock.now().getTime();
    const key = this.key(userId);
    await this.redis
      .multi()
      .zadd(key, now, address)
      .zremrangebyscore(key, '-inf', now - KNOWN_ADDRESS_TTL_MS)
      .zremrangebyrank(key, 0, -(KNOWN_ADDRESSES_PER_ACCOUNT + 1))
      .pexpire(key, KNOWN_ADDRESS_TTL_MS)
      .exec();
  }

  /** True when the account signed in successfully from `address` within the last 90 days. */
  async has(userId: string, address: string): Promise<boolean> {
    const score = await this.redis.zscore(this.key(userId), address);
    return score !== null && Number(score) > this.clock.now().getTime() - KNOWN_ADDRESS_TTL_MS;
  }
}

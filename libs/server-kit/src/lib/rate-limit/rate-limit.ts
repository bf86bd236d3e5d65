import type Redis from 'ioredis';
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
 * One count on each of KEYS, in order, for a window of ARGV[1] seconds: rate-limiter-flexible's own
 * RateLimiterRedis script (`incrTtlLuaScript`) run per key, so a key holds the same value whichever
 * counted it. Answers {consumed, ttlMs} per key. A key named twice is counted twice, one after the other.
 */
const COUNT_MANY_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[1], 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ARGV[1])
    ttl = 1000 * ARGV[1]
  end
  out[i] = {consumed, ttl}
end
return out
`;

type CountManyCommand = (numberOfKeys: number, ...keysThenWindow: (string | number)[]) => Promise<[number, number][]>;

/**
 * Redis-backed limits shared by every replica. Each named rule counts per key (an IP, an email);
 * exceeding it throws a 429 with Retry-After.
 */
export class RateLimits<Name extends string> {
  private readonly limiters = new Map<Name, RateLimiterRedis>();
  private readonly countMany: CountManyCommand;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly rules: Record<Name, RateLimitRule>,
  ) {
    const commands = redis as unknown as { mateRateLimitCountMany?: CountManyCommand };
    // Sent once, then called by its SHA; the number of keys is the first argument.
    if (!commands.mateRateLimitCountMany) redis.defineCommand('mateRateLimitCountMany', { lua: COUNT_MANY_SCRIPT });
    this.countMany = (commands.mateRateLimitCountMany as CountManyCommand).bind(redis);
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

  /**
   * `consume` for many keys in one Redis command (a batch of members' events): one count each, in
   * order, a key named twice counted twice. Settled per key, in order: a 429 for a key past the
   * limit; a Redis failure rejects every key. Only for rules without `blockSeconds` (none is kept here).
   */
  async consumeMany(name: Name, keys: string[], message: string = AuthMessages.tooManyAttempts): Promise<PromiseSettledResult<void>[]> {
    if (keys.length === 0) return [];
    const limiter = this.limiter(name);
    const rule = this.rules[name];
    if (rule.blockSeconds) throw new Error(`consumeMany does not keep blocks (rule ${name})`);
    try {
      const counts = await this.countMany(keys.length, ...keys.map((k) => limiter.getKey(k.toLowerCase())), rule.durationSeconds);
      return counts.map(([consumed, ttlMs]) =>
        consumed > limiter.points
          ? { status: 'rejected', reason: tooManyRequests(message, Math.max(1, Math.ceil(ttlMs / 1000))) }
          : { status: 'fulfilled', value: undefined },
      );
    } catch (reason) {
      return keys.map(() => ({ status: 'rejected', reason }));
    }
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

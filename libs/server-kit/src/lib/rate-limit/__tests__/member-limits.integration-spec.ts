import Redis from 'ioredis';
import { createTestRedisNamespace } from '@mate/testing';
import { AppException } from '../../errors/app.exception';
import { MemberLimits } from '../member-limits';
import { RateLimits } from '../rate-limit';

const RULES = {
  sendsPerMinute: { points: 2, durationSeconds: 60 },
  sendsPerDay: { points: 3, durationSeconds: 86_400 },
  reportsPerHour: { points: 1, durationSeconds: 3_600 },
};

/** A service's declaration, as the apps write theirs. */
class TestLimiter extends MemberLimits<keyof typeof RULES> {
  constructor(redis: Redis, prefix: string) {
    super(redis, `${prefix}:test`, RULES, {
      send: { rules: ['sendsPerMinute', 'sendsPerDay'], message: 'Too many sends.' },
      report: { rules: ['reportsPerHour'], message: 'Too many reports.' },
    });
  }
}

/** MemberLimits: one kit class for every service's per-member limits, on RateLimits' own counters. */
describe('MemberLimits', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let limiter: TestLimiter;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('member-limits');
    redis = new Redis(ns.url);
    limiter = new TestLimiter(redis, ns.prefix);
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
  });

  it("names a kind's rules in order, on RateLimits' keys under the prefix (lower-cased id), with each rule's window and allowance", () => {
    expect(limiter.counters('send', 'ANN')).toEqual([
      { key: `${ns.prefix}:test:rl:sendsPerMinute:ann`, windowSeconds: 60, points: 2 },
      { key: `${ns.prefix}:test:rl:sendsPerDay:ann`, windowSeconds: 86_400, points: 3 },
    ]);
    expect(limiter.counters('report', 'bob', { anything: true })).toEqual([
      { key: `${ns.prefix}:test:rl:reportsPerHour:bob`, windowSeconds: 3_600, points: 1 },
    ]);
    // The counters RateLimits.consume counts: a limit declared here keeps the counts of one counted in code.
    const consumed = new RateLimits(redis, `${ns.prefix}:test`, RULES);
    expect(consumed.allowanceCounters(['sendsPerMinute', 'sendsPerDay'], 'ann')).toEqual(
      limiter.counters('send', 'ann'),
    );
  });

  it("refuses a kind with its own message and Retry-After only when a count is past its rule's allowance", () => {
    expect(
      limiter.refusal('send', [
        { consumed: 2, msBeforeNext: 5_000 },
        { consumed: 3, msBeforeNext: 9_000 },
      ]),
    ).toBeNull();
    const refusal = limiter.refusal('send', [{ consumed: 3, msBeforeNext: 4_200 }]);
    expect(refusal).toBeInstanceOf(AppException);
    expect(refusal?.getStatus()).toBe(429);
    expect(refusal?.getResponse()).toMatchObject({ error: 'Too many sends.' });
    expect((refusal as AppException & { retryAfterSeconds?: number }).retryAfterSeconds).toBe(5);
    const dayRefusal = limiter.refusal('send', [
      { consumed: 1, msBeforeNext: 1_000 },
      { consumed: 4, msBeforeNext: 90_500 },
    ]);
    expect((dayRefusal as AppException & { retryAfterSeconds?: number }).retryAfterSeconds).toBe(91);
    expect(limiter.refusal('report', [{ consumed: 2, msBeforeNext: 10 }])?.getResponse()).toMatchObject({
      error: 'Too many reports.',
    });
  });

  it('throws for a kind the table does not name, an inherited property included', () => {
    expect(() => limiter.counters('like', 'ann')).toThrow("No per-member limit 'like' in TestLimiter");
    expect(() => limiter.refusal('like', [])).toThrow("No per-member limit 'like' in TestLimiter");
    expect(() => limiter.counters('toString', 'ann')).toThrow(
      "No per-member limit 'toString' in TestLimiter",
    );
  });

  it("forgets every rule's counter of the member and no one else's", async () => {
    const keysOf = (id: string) =>
      [...limiter.counters('send', id), ...limiter.counters('report', id)].map((c) => c.key);
    for (const key of [...keysOf('ann'), ...keysOf('bob')]) await redis.set(key, '1', 'EX', 60);
    await limiter.forget('ANN');
    expect(await redis.exists(...keysOf('ann'))).toBe(0);
    expect(await redis.exists(...keysOf('bob'))).toBe(3);
  });
});

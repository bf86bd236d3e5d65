import Redis from 'ioredis';
import { createTestRedisNamespace } from '@mate/testing';
import { AppException } from '../../errors/app.exception';
import { RateLimits } from '../rate-limit';

/** allowanceCounters / refusalOf: the rules as counters another call counts (the guard's session check). */
describe('RateLimits.allowanceCounters', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let limits: RateLimits<'perMinute' | 'perDay'>;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('rate-limits-counters');
    redis = new Redis(ns.url);
    limits = new RateLimits(redis, ns.prefix, {
      perMinute: { points: 2, durationSeconds: 60 },
      perDay: { points: 3, durationSeconds: 86_400 },
    });
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
  });

  it("names consume()'s counters, in order, with each rule's window and allowance, and refuses only past an allowance", async () => {
    await limits.consume('perMinute', 'Ann');
    const counters = limits.allowanceCounters(['perMinute', 'perDay'], 'ANN');
    expect(counters).toEqual([
      { key: expect.any(String), windowSeconds: 60, points: 2 },
      { key: expect.any(String), windowSeconds: 86_400, points: 3 },
    ]);
    expect(await redis.get(counters[0].key)).toBe('1');
    expect(limits.refusalOf(['perMinute', 'perDay'], [{ consumed: 2, msBeforeNext: 5_000 }, { consumed: 3, msBeforeNext: 9_000 }])).toBeNull();
    const refusal = limits.refusalOf(['perMinute', 'perDay'], [{ consumed: 3, msBeforeNext: 4_200 }], 'slow down');
    expect(refusal).toBeInstanceOf(AppException);
    expect(refusal?.getStatus()).toBe(429);
    expect(refusal?.getResponse()).toMatchObject({ error: 'slow down' });
  });
});

import Redis from 'ioredis';
import { createTestRedisNamespace } from '@mate/testing';
import { AppException } from '../../errors/app.exception';
import { RateLimits } from '../rate-limit';

/** consumeMany (a batch of members' events in one Redis command) against a real Redis. */
describe('RateLimits.consumeMany', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let limits: RateLimits<'sends'>;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('rate-limits');
    redis = new Redis(ns.url);
    limits = new RateLimits(redis, ns.prefix, { sends: { points: 3, durationSeconds: 10 } });
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
  });

  it('counts each key once per mention, in order, on the same counter consume() uses, refusing past the limit with Retry-After', async () => {
    await limits.consume('sends', 'Ann');
    const answers = await limits.consumeMany('sends', ['ann', 'bob', 'ann', 'ann', 'bob'], 'slow down');
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const refused = (answers[3] as PromiseRejectedResult).reason as AppException;
    expect(refused.getStatus()).toBe(429);
    expect(refused.getResponse()).toMatchObject({ error: 'slow down' });
    // consume() reads the counters consumeMany left: Ann is past her limit, Bob has one left.
    await expect(limits.consume('sends', 'ann')).rejects.toBeInstanceOf(AppException);
    await expect(limits.consume('sends', 'bob')).resolves.toBeUndefined();
    await expect(limits.consume('sends', 'bob')).rejects.toBeInstanceOf(AppException);
    const ttl = await redis.pttl((await redis.keys(`${ns.prefix}:rl:sends:*`))[0]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000);
  });

  it('answers nothing for no keys, and rejects every key when Redis fails', async () => {
    expect(await limits.consumeMany('sends', [])).toEqual([]);
    const broken = new Redis(ns.url, { lazyConnect: true, enableOfflineQueue: false });
    const failing = new RateLimits(broken, ns.prefix, { sends: { points: 3, durationSeconds: 10 } });
    const answers = await failing.consumeMany('sends', ['cat', 'dan']);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect((answers[0] as PromiseRejectedResult).reason).not.toBeInstanceOf(AppException);
    broken.disconnect();
  });
});

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

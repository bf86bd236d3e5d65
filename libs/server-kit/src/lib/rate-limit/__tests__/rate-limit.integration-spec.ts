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

/** consumeEach (a minute's and a day's rule for one key in one Redis command) against a real Redis. */
describe('RateLimits.consumeEach', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let limits: RateLimits<'perMinute' | 'perDay'>;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('rate-limits-each');
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

  const counter = async (name: string, key: string) => Number(await redis.get(`${ns.prefix}:rl:${name}:${key}`));

  it('counts each rule on the counter consume() uses, with its own window, and stops at the first rule past its limit', async () => {
    await limits.consumeEach(['perMinute', 'perDay'], 'Ann');
    await limits.consume('perMinute', 'ann');
    expect([await counter('perMinute', 'ann'), await counter('perDay', 'ann')]).toEqual([2, 1]);
    const refused = await limits.consumeEach(['perMinute', 'perDay'], 'ann', 'slow down').catch((e: AppException) => e);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).getStatus()).toBe(429);
    expect((refused as AppException).getResponse()).toMatchObject({ error: 'slow down' });
    // The minute's refusal counted the minute only, as consume() rule after rule would.
    expect([await counter('perMinute', 'ann'), await counter('perDay', 'ann')]).toEqual([3, 1]);
    const minuteTtl = await redis.pttl(`${ns.prefix}:rl:perMinute:ann`);
    const dayTtl = await redis.pttl(`${ns.prefix}:rl:perDay:ann`);
    expect(minuteTtl).toBeGreaterThan(0);
    expect(minuteTtl).toBeLessThanOrEqual(60_000);
    expect(dayTtl).toBeGreaterThan(60_000);
  });

  it('refuses with the later rule when only it is past its limit', async () => {
    for (let i = 0; i < 3; i++) await limits.consume('perDay', 'bob');
    await expect(limits.consumeEach(['perMinute', 'perDay'], 'bob')).rejects.toBeInstanceOf(AppException);
    expect([await counter('perMinute', 'bob'), await counter('perDay', 'bob')]).toEqual([1, 4]);
  });
});

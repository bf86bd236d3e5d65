import { randomUUID } from 'node:crypto';
import { createRedis, loadEnv, BaseServiceEnv, slotOf, type RedisClient } from '@mate/server-kit';
import { startRedisCluster, type OwnRedisCluster } from '@mate/testing';
import { PushBursts } from '../push-bursts';

/**
 * Push bursts on a real Redis Cluster of the test's own (ADR 0032): a burst's two keys (its
 * message ids and its job marker) carry the pair's hash tag, so each script stays in one slot.
 */
describe('push bursts on a Redis Cluster', () => {
  let cluster: OwnRedisCluster;
  let redis: RedisClient;
  let bursts: PushBursts;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    const env = loadEnv(BaseServiceEnv, { REDIS_CLUSTER_NODES: cluster.seeds, KEY_PREFIX: `bursts${process.pid}` });
    redis = createRedis(env);
    bursts = new PushBursts(redis, env);
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  it('opens a burst once, counts a message id once, and ends it with its count', async () => {
    const pairs = Array.from({ length: 6 }, () => [randomUUID(), randomUUID()] as const);
    expect(new Set(pairs.map(([r, s]) => slotOf(`{${r}:${s}}`))).size).toBeGreaterThan(1);
    for (const [recipient, sender] of pairs) {
      const token = await bursts.add(recipient, sender, 'm1');
      expect(token).toEqual(expect.any(String));
      expect(await bursts.add(recipient, sender, 'm2')).toBeNull();
      expect(await bursts.add(recipient, sender, 'm2')).toBeNull();
      expect(await bursts.isOpen(recipient, sender)).toBe(true);
      expect(await bursts.take(recipient, sender)).toBe(2);
      expect(await bursts.isOpen(recipient, sender)).toBe(false);
    }
  });
});

import Redis from 'ioredis';
import { createTestRedisNamespace } from '@mate/testing';
import { createRedis } from '../../redis/redis';
import { PresenceReader } from '../presence-reader';
import { presenceField, presenceInstanceKey, presenceUserKey } from '../realtime.keys';

/**
 * The reader over the records the gateway writes (apps/gateway/src/realtime/presence.ts; the
 * end-to-end behaviour through real gateways is in the gateway's presence.integration-spec.ts).
 */
describe('PresenceReader', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let reader: PresenceReader;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('presence-reader');
    redis = new Redis(ns.url);
    reader = new PresenceReader(redis, ns.prefix);
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
  });

  /** An instance's liveness key, as its heartbeat sets it. */
  const alive = (instanceId: string, prefix = ns.prefix) => redis.set(presenceInstanceKey(prefix, instanceId), '1', 'PX', 60_000);
  /** A socket of a member on an instance, as the gateway records it. */
  const record = (userId: string, instanceId: string, socketId: string, prefix = ns.prefix) =>
    redis.hset(presenceUserKey(prefix, userId), presenceField(instanceId, socketId), instanceId);

  it('counts only sockets of instances whose liveness key exists', async () => {
    await alive('live-1');
    await record('ada', 'dead-1', 's1');
    await record('ada', 'dead-1', 's2');
    await record('bob', 'dead-1', 's3');
    await record('bob', 'live-1', 's4');
    expect(await reader.isOnline('ada')).toBe(false);
    expect(await reader.isOnline('bob')).toBe(true);
    expect(await reader.isOnline('nobody')).toBe(false);
    expect(await reader.onlineOf(['ada', 'bob', 'nobody', 'bob'])).toEqual(new Set(['bob']));
    await alive('dead-1');
    expect(await reader.isOnline('ada')).toBe(true);
  });

  it('answers for more members than one script call takes', async () => {
    await alive('live-2');
    const ids = Array.from({ length: 1200 }, (_, i) => `many-${i}`);
    const pipeline = redis.pipeline();
    ids.forEach((id, i) => {
      if (i % 3 === 0) pipeline.hset(presenceUserKey(ns.prefix, id), presenceField('live-2', `s${i}`), 'live-2');
    });
    await pipeline.exec();
    const online = await reader.onlineOf(ids);
    expect(online).toEqual(new Set(ids.filter((_, i) => i % 3 === 0)));
  });

  it("reads only its own prefix: another deployment's records never count", async () => {
    const other = `${ns.prefix}-other`;
    await alive('live-3', other);
    await record('cyd', 'live-3', 's1', other);
    try {
      expect(await reader.isOnline('cyd')).toBe(false);
      expect(await new PresenceReader(redis, other).isOnline('cyd')).toBe(true);
    } finally {
      await redis.del(presenceInstanceKey(other, 'live-3'), presenceUserKey(other, 'cyd'));
    }
  });

  it('throws when Redis is unreachable, instead of guessing', async () => {
    // Nothing listens on port 1; with no retries the connection ends by itself (no timers left).
    const down = createRedis('redis://127.0.0.1:1', { retryStrategy: () => null });
    down.on('error', () => undefined);
    const unreachable = new PresenceReader(down, ns.prefix);
    await expect(unreachable.isOnline('ada')).rejects.toThrow();
    await expect(unreachable.onlineOf(['ada', 'bob'])).rejects.toThrow();
  });
});

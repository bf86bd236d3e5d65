import { randomUUID } from 'node:crypto';
import Redis, { Cluster } from 'ioredis';
import { DAY, queuePrefix } from '@mate/contracts';
import { startRedisCluster, type OwnRedisCluster } from '@mate/testing';
import { memberActivityStreamKey, SessionStore } from '../../auth/session-store';
import { MemberLimits } from '../../rate-limit/member-limits';
import { PairGate } from '../../pair-gate/pair-gate';
import { PresenceReader } from '../../realtime/presence-reader';
import { presenceInstanceKey, presenceUserKey } from '../../realtime/realtime.keys';
import { createQueueConnection, createRedis, createRedisConnection, isClusterClient, queuePrefixOf, type RedisClient } from '../redis';
import { slotOf } from '../slots';

const RULES = {
  sendsPerMinute: { points: 2, durationSeconds: 60 },
  sendsPerDay: { points: 3, durationSeconds: 86_400 },
};

class SendLimits extends MemberLimits<keyof typeof RULES> {
  constructor(redis: RedisClient, prefix: string) {
    super(redis, prefix, RULES, { send: { rules: ['sendsPerMinute', 'sendsPerDay'], message: 'Too many sends.' } });
  }
}

/**
 * The kit's Redis uses on a real Redis Cluster of the test's own (3 masters, 3 replicas): the
 * connection factory, sessions, per-member limits, the pair gate and presence, with members whose
 * keys lie in different slots (ADR 0032). No command may cross slots: the cluster refuses it.
 */
describe('Redis Cluster: the kit (real cluster)', () => {
  let cluster: OwnRedisCluster;
  let redis: RedisClient;
  const prefix = `kit${process.pid}`;
  const today = Math.floor(Date.now() / DAY) * DAY;
  const env = () => ({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: cluster.seeds });

  beforeAll(async () => {
    cluster = await startRedisCluster();
    redis = createRedis(env());
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  /** Members whose keys lie in as many different slots as there are members. */
  function membersInDifferentSlots(n: number): string[] {
    const found = new Map<number, string>();
    while (found.size < n) {
      const id = randomUUID();
      found.set(slotOf(`{${id}}`), id);
    }
    return [...found.values()];
  }

  it('builds a Cluster client when REDIS_CLUSTER_NODES is set, and a server client when it is not', async () => {
    expect(isClusterClient(redis)).toBe(true);
    expect(redis).toBeInstanceOf(Cluster);
    const single = createRedisConnection({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_NODES: ' ' }, 'command', { lazyConnect: true });
    expect(single).toBeInstanceOf(Redis);
    single.disconnect();
    const queue = createQueueConnection(env());
    try {
      expect(queue).toBeInstanceOf(Cluster);
      expect((queue as Cluster).options.redisOptions?.maxRetriesPerRequest).toBeNull();
      await queue.set(`${prefix}:probe`, '1');
      expect(await redis.get(`${prefix}:probe`)).toBe('1');
    } finally {
      queue.disconnect();
    }
    expect(() => createRedis({ REDIS_URL: 'redis://x', REDIS_CLUSTER_NODES: 'nohost' })).toThrow(/host:port/);
    // One slot per queue on a cluster; the prefix as before on one server.
    expect(queuePrefix('mate', 'events.chat', true)).toBe('{mate:events.chat}');
    expect(queuePrefix('mate', 'events.chat', false)).toBe('mate');
    expect(queuePrefixOf({ KEY_PREFIX: 'mate' }, 'email')).toBe('mate');
  });

  it('sessions: create, touch, count, revoke, with every member in its own slot', async () => {
    const store = new SessionStore(redis, prefix);
    const limits = new SendLimits(redis, prefix);
    const members = membersInDifferentSlots(6);
    const sessions = members.map((userId) => ({ userId, sessionId: randomUUID() }));
    for (const { userId, sessionId } of sessions) await store.create(sessionId, userId, 'member', true, today + 1_000);
    // A member's session, session list and counters share the member's slot.
    const [first] = sessions;
    const counters = limits.counters('send', first.userId);
    expect(new Set([store.sessionKey(first.sessionId, first.userId), store.userSessionsKey(first.userId), ...counters.map((c) => c.key)].map(slotOf)).size).toBe(1);

    // The sign-ins are on the activity stream (its own slot), and no note is left due.
    const notes = async () => (await redis.xrange(memberActivityStreamKey(prefix), '-', '+')).map(([, f]) => f[1]);
    expect((await notes()).sort()).toEqual([...members].sort());
    expect(await redis.hget(store.sessionKey(first.sessionId, first.userId), 'activityDue')).toBeNull();

    // touch slides; the first request of a new day notes the member once.
    expect(await store.touch(first.sessionId, first.userId, today + 2_000)).toEqual({ role: 'member', verified: true });
    expect(await store.touch(first.sessionId, first.userId, today + DAY)).toEqual({ role: 'member', verified: true });
    expect(await store.touch(first.sessionId, first.userId, today + DAY + 1)).not.toBeNull();
    expect((await notes()).filter((id) => id === first.userId)).toHaveLength(2);
    expect(await store.touch(first.sessionId, randomUUID(), today + DAY + 2)).toBeNull();

    // The guard's session check and the member's counters: one script, the third send refused.
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push(await store.touchCountingMember(first.sessionId, first.userId, counters, { verifiedOnly: true }, today + DAY + 10));
    expect(counts.map((c) => c.counts[0].consumed)).toEqual([1, 2, 3]);
    expect(limits.refusal('send', counts[2].counts)?.getStatus()).toBe(429);
    expect(limits.refusal('send', counts[1].counts)).toBeNull();

    // Many members at once: split by slot, answered in the callers' order.
    const many = await store.countMembers(sessions.map((s) => limits.counters('send', s.userId)));
    expect(many.map((c) => c[0].consumed)).toEqual([4, 1, 1, 1, 1, 1]);
    const stranger = { sessionId: randomUUID(), userId: randomUUID() };
    const touched = await store.touchMany([...sessions.slice(1), stranger, first], today + DAY + 20);
    expect(touched).toEqual([...sessions.slice(1).map(() => ({ role: 'member', verified: true })), null, { role: 'member', verified: true }]);
    const activity = await store.lastActivity([...sessions, stranger]);
    expect(activity.size).toBe(6);
    expect(activity.get(first.sessionId)).toBe(today + DAY + 20);

    // The gateway's address counter and the session: two slots, one answer.
    const byAddress = await store.touchCounting(first.sessionId, first.userId, { key: `${prefix}:rl:gateway:203.0.113.9`, windowSeconds: 60 }, today + DAY + 30);
    expect(byAddress).toEqual({ count: { consumed: 1, msBeforeNext: expect.any(Number) }, session: { role: 'member', verified: true } });

    // Verification and revocation act on the member's sessions in their slot.
    const second = randomUUID();
    await store.create(second, first.userId, 'member', false, today + DAY + 40);
    await store.setVerified(first.userId, true);
    expect(await store.peek(second, first.userId)).toEqual({ role: 'member', verified: true });
    await store.revoke(first.sessionId, first.userId);
    expect(await store.touch(first.sessionId, first.userId, today + DAY + 50)).toBeNull();
    expect(await store.revokeAllForUser(first.userId)).toEqual([second]);
    expect(await redis.smembers(store.userSessionsKey(first.userId))).toEqual([]);
    await limits.forget(first.userId);
    expect(await redis.exists(...counters.slice(0, 1).map((c) => c.key))).toBe(0);
  });

  it('pair gate: many pairs in one read, in order, whatever their slots', async () => {
    const gate = new PairGate(redis, prefix);
    const pairs = Array.from({ length: 8 }, () => [randomUUID(), randomUUID()] as const);
    expect(new Set(pairs.map(([x, y]) => slotOf(gate.key(x, y)))).size).toBeGreaterThan(1);
    for (const [i, [x, y]] of pairs.entries()) if (i % 2 === 0) await gate.close(x, y, i + 1);
    const read = await gate.readMany(pairs);
    expect(read).toEqual(pairs.map((_, i) => (i % 2 === 0 ? { version: i + 1, open: false } : null)));
  });

  it("presence: a member counts while one of their sockets' gateways is alive", async () => {
    const reader = new PresenceReader(redis, prefix);
    const [ann, bob, cem] = membersInDifferentSlots(3);
    const [live, dead] = [randomUUID(), randomUUID()];
    await redis.set(presenceInstanceKey(prefix, live, true), '1', 'PX', 60_000);
    await redis.hset(presenceUserKey(prefix, ann), `${live}/s1`, live);
    await redis.hset(presenceUserKey(prefix, bob), `${dead}/s2`, dead);
    await redis.hset(presenceUserKey(prefix, cem), `${dead}/s3`, dead, `${live}/s4`, live);
    expect(await reader.onlineOf([ann, bob, cem])).toEqual(new Set([ann, cem]));
    expect(await reader.isOnline(bob)).toBe(false);
  });
});

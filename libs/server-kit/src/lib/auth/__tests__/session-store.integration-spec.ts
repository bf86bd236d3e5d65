import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { DAY } from '@mate/contracts';
import { createTestRedisNamespace } from '@mate/testing';
import { memberActivityStreamKey, SessionStore } from '../session-store';

type Namespace = Awaited<ReturnType<typeof createTestRedisNamespace>>;

/**
 * The session store's activity notes (issue 13): a session's creation and its first request of a
 * new UTC day add `{ userId, at }` to the member activity stream; every other request adds none.
 * Real Redis.
 */
describe('session store: member activity notes (real Redis)', () => {
  let ns: Namespace;
  let redis: Redis;
  let store: SessionStore;
  let key: string;
  const userId = '6f1d3c1e-8a8e-4c61-9b83-0f7a3f3f1a01';
  const today = Math.floor(Date.now() / DAY) * DAY;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('session_store');
    redis = new Redis(ns.url);
    store = new SessionStore(redis, ns.prefix);
    key = memberActivityStreamKey(ns.prefix);
  });

  afterAll(async () => {
    await ns?.cleanup();
    await redis?.quit();
  });

  const notes = async () =>
    (await redis.xrange(key, '-', '+')).map(([, fields]) => ({ userId: fields[1], at: Number(fields[3]) }));

  it('notes the sign-in, then only the first request of each new UTC day', async () => {
    await store.create('s1', userId, 'member', true, today + 1_000);
    expect(await notes()).toEqual([{ userId, at: today + 1_000 }]);
    for (const at of [today + 2_000, today + 3_600_000, today + DAY - 1])
      expect(await store.touch('s1', userId, at)).not.toBeNull();
    expect(await notes()).toHaveLength(1);
    expect(await store.touch('s1', userId, today + DAY)).toEqual({ role: 'member', verified: true });
    expect(await store.touch('s1', userId, today + DAY + 5)).not.toBeNull();
    // Batched touches (the gateway's socket events) note the same way.
    expect(await store.touchMany([{ sessionId: 's1', userId }], today + 3 * DAY)).toEqual([
      { role: 'member', verified: true },
    ]);
    expect(await store.touchMany([{ sessionId: 's1', userId }], today + 3 * DAY + 10)).toHaveLength(1);
    expect(await notes()).toEqual([
      { userId, at: today + 1_000 },
      { userId, at: today + DAY },
      { userId, at: today + 3 * DAY },
    ]);
  });

  it('notes nothing for a session that is gone or not the user’s, nor for a clock going back', async () => {
    await redis.del(key);
    expect(await store.touch('missing', userId, today + 10 * DAY)).toBeNull();
    await store.create('s2', userId, 'member', false, today + 5 * DAY);
    expect(await store.touch('s2', 'someone-else', today + 6 * DAY)).toBeNull();
    expect(await store.touch('s2', userId, today + 4 * DAY)).not.toBeNull();
    expect(await notes()).toEqual([{ userId, at: today + 5 * DAY }]);
    await store.revoke('s2', userId);
    expect(await store.touch('s2', userId, today + 20 * DAY)).toBeNull();
    expect(await notes()).toHaveLength(1);
  });
  it('peek says whether a session is alive and whose, and neither slides it nor notes activity', async () => {
    const userId = randomUUID();
    const now = Date.now();
    await store.create('peeked', userId, 'admin', true, now);
    await redis.pexpire(`${ns.prefix}:session:peeked`, 5_000);
    const notes = await redis.xlen(memberActivityStreamKey(ns.prefix));
    expect(await store.peek('peeked', userId)).toEqual({ role: 'admin', verified: true });
    expect(await store.peek('peeked', randomUUID())).toBeNull();
    expect(await store.peek('gone', userId)).toBeNull();
    expect(await redis.pttl(`${ns.prefix}:session:peeked`)).toBeLessThanOrEqual(5_000);
    expect(await redis.xlen(memberActivityStreamKey(ns.prefix))).toBe(notes);
    expect(await redis.hget(`${ns.prefix}:session:peeked`, 'lastActivity')).toBe(String(now));
  });
});

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

  it('touchMany answers each session of a batch in order, live or not, in one call, sliding only the live ones', async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const at = today + 40 * DAY;
    await store.create('m1', ann, 'member', true, at);
    await store.create('m2', bob, 'member', false, at);
    await redis.pexpire(`${ns.prefix}:session:m1`, 1_000);
    const answers = await store.touchMany(
      [
        { sessionId: 'm1', userId: ann },
        { sessionId: 'gone', userId: ann },
        { sessionId: 'm2', userId: ann },
        { sessionId: 'm2', userId: bob },
        { sessionId: 'm1', userId: ann },
      ],
      at + 5,
    );
    expect(answers).toEqual([{ role: 'member', verified: true }, null, null, { role: 'member', verified: false }, { role: 'member', verified: true }]);
    expect(await redis.pttl(`${ns.prefix}:session:m1`)).toBeGreaterThan(1_000);
    expect(await store.touchMany([])).toEqual([]);
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
  it('touchCounting counts on a fixed window and touches in one call, as countInWindow and touch do apart', async () => {
    const userId = randomUUID();
    const at = today + 30 * DAY;
    const counter = { key: `${ns.prefix}:rl:test:203.0.113.9`, windowSeconds: 60 };
    await store.create('counted', userId, 'admin', true, at - 1_000);
    await redis.pexpire(`${ns.prefix}:session:counted`, 5_000);
    const first = await store.touchCounting('counted', userId, counter, at);
    expect(first).toEqual({ count: { consumed: 1, msBeforeNext: expect.any(Number) }, session: { role: 'admin', verified: true } });
    expect(first.count.msBeforeNext).toBeGreaterThan(59_000);
    expect(first.count.msBeforeNext).toBeLessThanOrEqual(60_000);
    // The session slid and noted its activity as touch does.
    expect(await redis.pttl(`${ns.prefix}:session:counted`)).toBeGreaterThan(5_000);
    expect(await redis.hget(`${ns.prefix}:session:counted`, 'lastActivity')).toBe(String(at));
    // A session that is gone or not the user's still counts.
    expect(await store.touchCounting('counted', randomUUID(), counter, at)).toEqual({ count: { consumed: 2, msBeforeNext: expect.any(Number) }, session: null });
    expect(await store.touchCounting('gone', userId, counter, at)).toMatchObject({ count: { consumed: 3 }, session: null });
    expect(await store.countInWindow(counter)).toMatchObject({ consumed: 4 });
    expect(await redis.ttl(counter.key)).toBeGreaterThan(58);
    // A counter left without an expiry gets the window's again.
    await redis.persist(counter.key);
    expect(await store.countInWindow(counter)).toEqual({ consumed: 5, msBeforeNext: 60_000 });
    expect(await redis.ttl(counter.key)).toBeGreaterThan(58);
  });

  it("touchCountingMember touches, then counts a live session's counters in order, stopping after the first past its allowance", async () => {
    const userId = randomUUID();
    const at = today + 40 * DAY;
    const minute = { key: `${ns.prefix}:rl:perMinute:${userId}`, windowSeconds: 60, points: 2 };
    const day = { key: `${ns.prefix}:rl:perDay:${userId}`, windowSeconds: 86_400, points: 100 };
    await store.create('member', userId, 'member', true, at - 1_000);
    await store.create('unverified', userId, 'member', false, at - 1_000);
    const counted = (sessionId: string, verifiedOnly = true) => store.touchCountingMember(sessionId, userId, [minute, day], { verifiedOnly }, at);
    const first = await counted('member');
    expect(first).toEqual({
      session: { role: 'member', verified: true },
      counts: [
        { consumed: 1, msBeforeNext: expect.any(Number) },
        { consumed: 1, msBeforeNext: expect.any(Number) },
      ],
    });
    expect(first.counts[0].msBeforeNext).toBeLessThanOrEqual(60_000);
    expect(first.counts[1].msBeforeNext).toBeGreaterThan(60_000);
    expect(await redis.hget(`${ns.prefix}:session:member`, 'lastActivity')).toBe(String(at));
    // A session that is gone, another's, or unverified where verification is needed counts nothing.
    expect(await counted('gone')).toEqual({ session: null, counts: [] });
    expect(await store.touchCountingMember('member', randomUUID(), [minute, day], { verifiedOnly: true }, at)).toEqual({ session: null, counts: [] });
    expect(await counted('unverified')).toEqual({ session: { role: 'member', verified: false }, counts: [] });
    expect((await counted('unverified', false)).counts.map((c) => c.consumed)).toEqual([2, 2]);
    // Past the minute's allowance the day's is not counted.
    expect((await counted('member')).counts.map((c) => c.consumed)).toEqual([3]);
    expect(await redis.get(day.key)).toBe('2');
  });

  it('countMembers counts many members\' counters in one call, each in order, stopping after its first past its allowance', async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const minute = (userId: string) => ({ key: `${ns.prefix}:rl:members-minute:${userId}`, windowSeconds: 60, points: 1 });
    const day = (userId: string) => ({ key: `${ns.prefix}:rl:members-day:${userId}`, windowSeconds: 86_400, points: 100 });
    const counts = await store.countMembers([[minute(ann), day(ann)], [], [minute(bob)], [minute(ann), day(ann)]]);
    expect(counts.map((of) => of.map((c) => c.consumed))).toEqual([[1, 1], [], [1], [2]]);
    expect(counts[0][0].msBeforeNext).toBeLessThanOrEqual(60_000);
    expect(counts[0][1].msBeforeNext).toBeGreaterThan(60_000);
    // Past the minute's allowance the day's is not counted, as touchCountingMember does.
    expect(await redis.get(day(ann).key)).toBe('1');
    expect(await store.countMembers([[], []])).toEqual([[], []]);
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

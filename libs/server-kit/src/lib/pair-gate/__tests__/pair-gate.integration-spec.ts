import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createTestRedisNamespace } from '@mate/testing';
import { PAIR_GATE_TTL_SECONDS, PairGate, pairGateMatch, pairGateRefuses } from '../pair-gate';

/** The gate's Redis side against a real Redis (its use by safety, chat and calls is tested in those services). */
describe('PairGate', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;
  let gate: PairGate;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('pair-gate');
    redis = new Redis(ns.url);
    gate = new PairGate(redis, ns.prefix);
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
  });

  it('is the same entry whichever order the pair is named in, and keeps no member id in its key', async () => {
    const [x, y] = [randomUUID(), randomUUID()];
    expect(await gate.read(x, y)).toBeNull();
    await gate.close(x, y.toUpperCase(), 3);
    expect(await gate.read(y, x)).toEqual({ version: 3, open: false });
    expect(gate.key(x, y)).not.toContain(x);
    expect(gate.key(x, y)).not.toContain(y);
    const ttl = await redis.ttl(gate.key(x, y));
    expect(ttl).toBeGreaterThan(PAIR_GATE_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(PAIR_GATE_TTL_SECONDS);
  });

  it('reads many pairs in one call, in the order asked, null where no producer wrote', async () => {
    const [x, y, z] = [randomUUID(), randomUUID(), randomUUID()];
    await gate.close(x, y, 2);
    await gate.open(y, z, 4);
    expect(await gate.readMany([[y, x], [x, z], [z, y]])).toEqual([{ version: 2, open: false }, null, { version: 4, open: true }]);
    expect(await gate.readMany([])).toEqual([]);
  });

  it('never goes back to an older state, and a match at the closing version wins over the close', async () => {
    const [x, y] = [randomUUID(), randomUUID()];
    await gate.close(x, y, 5);
    await gate.close(x, y, 4);
    await gate.open(x, y, 4);
    expect(await gate.read(x, y)).toEqual({ version: 5, open: false });
    await gate.open(x, y, 5);
    expect(await gate.read(x, y)).toEqual({ version: 5, open: true });
    await gate.close(x, y, 5);
    expect(await gate.read(x, y)).toEqual({ version: 5, open: true });
    await gate.close(x, y, 6);
    expect(await gate.read(x, y)).toEqual({ version: 6, open: false });
  });

  it('refuses exactly the matches made under an older pair version than the gate holds', () => {
    expect(pairGateRefuses(null, 0)).toBe(false);
    expect(pairGateRefuses({ version: 2, open: false }, 1)).toBe(true);
    expect(pairGateRefuses({ version: 2, open: false }, null)).toBe(true);
    expect(pairGateRefuses({ version: 2, open: false }, 2)).toBe(false);
    expect(pairGateRefuses({ version: 2, open: true }, 2)).toBe(false);
    // A newer match (pair events ended the older one in between, ADR 0029).
    expect(pairGateRefuses({ version: 2, open: true }, 0)).toBe(true);
  });

  it('an open entry carries the match (id and time, no member id) for consumers that have not heard of it yet', async () => {
    const [x, y, matchId] = [randomUUID(), randomUUID(), randomUUID()];
    const matchedAt = new Date('2026-11-30T06:00:00.123Z');
    await gate.open(x, y, 3, { matchId, matchedAt });
    const read = await gate.read(y, x);
    expect(read).toEqual({ version: 3, open: true, match: { matchId, matchedAt } });
    expect(pairGateMatch(read)).toEqual({ matchId, matchedAt, pairVersion: 3 });
    const stored = (await redis.get(gate.key(x, y))) ?? '';
    expect(stored).toBe(`3:open:${matchId}:${matchedAt.getTime()}`);
    expect([x, y].some((id) => stored.includes(id))).toBe(false);

    // Ordered as before: an equal open keeps the entry, a close at that version loses, a newer close wins.
    await gate.open(x, y, 3);
    await gate.close(x, y, 3);
    expect(await gate.read(x, y)).toEqual({ version: 3, open: true, match: { matchId, matchedAt } });
    await gate.close(x, y, 4);
    expect(await gate.read(x, y)).toEqual({ version: 4, open: false });
    expect(pairGateMatch(await gate.read(x, y))).toBeNull();
    await gate.open(x, y, 4, { matchId: randomUUID(), matchedAt });
    expect((await gate.read(x, y))?.open).toBe(true);

    // An open entry without a match (written before ADR 0029) still reads; an unreadable one is no gate.
    await redis.set(gate.key(x, y), '5:open');
    expect(await gate.read(x, y)).toEqual({ version: 5, open: true });
    await redis.set(gate.key(x, y), '6:open:not-a-match:1');
    expect(await gate.read(x, y)).toBeNull();
    await expect(gate.open(x, y, 7, { matchId: 'nope', matchedAt })).rejects.toThrow();
  });

  it('fails closed: a read while Redis is unreachable rejects rather than answer "no gate"', async () => {
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    const broken = new PairGate(down, ns.prefix);
    await expect(broken.read(randomUUID(), randomUUID())).rejects.toThrow();
    down.disconnect();
  });
});

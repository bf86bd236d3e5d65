import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createTestRedisNamespace } from '@mate/testing';
import { PAIR_GATE_TTL_SECONDS, PairGate, pairGateRefuses } from '../pair-gate';

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

  it('refuses exactly the matches made under an older pair version than the close', () => {
    expect(pairGateRefuses(null, 0)).toBe(false);
    expect(pairGateRefuses({ version: 2, open: false }, 1)).toBe(true);
    expect(pairGateRefuses({ version: 2, open: false }, null)).toBe(true);
    expect(pairGateRefuses({ version: 2, open: false }, 2)).toBe(false);
    expect(pairGateRefuses({ version: 2, open: true }, 0)).toBe(false);
  });

  it('fails closed: a read while Redis is unreachable rejects rather than answer "no gate"', async () => {
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    const broken = new PairGate(down, ns.prefix);
    await expect(broken.read(randomUUID(), randomUUID())).rejects.toThrow();
    down.disconnect();
  });
});

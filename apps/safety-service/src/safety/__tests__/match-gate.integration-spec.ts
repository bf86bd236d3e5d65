import { randomUUID } from 'node:crypto';
import { SafetyMessages } from '@mate/contracts';
import type Redis from 'ioredis';
import { PairGate, REDIS } from '@mate/server-kit';
import { startSafetyTestBed, type SafetyMember, type SafetyTestBed } from '../../__tests__/safety-test-bed';

/**
 * Issue 27 in safety: a match is the pair's the moment its like has answered, so an unmatch right
 * after 'It's a Match!' ends it and a block names it as the match it ends, although match.created
 * reaches safety a moment later. Matching opens the pair gate with the match after its commit and
 * before its answer (ADR 0029); here it is opened exactly so and the event is delivered late.
 */
describe('safety takes the match from the pair gate before match.created arrives (real PostgreSQL and Redis)', () => {
  let t: SafetyTestBed;
  let gate: PairGate;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_match_gate');
    gate = t.bed.app.get(PairGate);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  }, 60_000);

  const matchInGate = async (x: SafetyMember, y: SafetyMember, pairVersion = 0) => {
    const match = { matchId: randomUUID(), matchedAt: new Date(Date.now() - 5) };
    await gate.open(x.userId, y.userId, pairVersion, match);
    return match;
  };

  it('an unmatch right after the match ends it, closes the gate, and the late match.created resurrects nothing', async () => {
    const [ann, bob] = [await t.member({ name: 'Ann' }), await t.member({ name: 'Bob' })];
    expect((await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).status).toBe(404);

    const match = await matchInGate(ann, bob);
    expect(await t.api(bob, 'POST', `/api/safety/unmatch/${ann.userId}`)).toEqual({ status: 200, body: { unmatched: true, matchId: match.matchId } });
    expect(await gate.read(ann.userId, bob.userId)).toEqual({ version: 1, open: false });
    const [ended] = await t.events('match.ended');
    expect(ended.payload).toMatchObject({ matchId: match.matchId, endedBy: bob.userId, reason: 'unmatch' });
    expect(ended.aggregateVersion).toBe(1);

    await t.match(ann, bob, { matchId: match.matchId, createdAt: match.matchedAt, pairVersion: 0 });
    expect(await t.api(ann, 'POST', `/api/safety/unmatch/${bob.userId}`)).toEqual({
      status: 404,
      body: expect.objectContaining({ error: SafetyMessages.notMatched }),
    });
    expect(await t.events('match.ended')).toHaveLength(1);
  });

  it('a block right after the match names it as the match it ends', async () => {
    const [cat, dan] = [await t.member({ name: 'Cat' }), await t.member({ name: 'Dan' })];
    const match = await matchInGate(cat, dan);
    expect((await t.api(dan, 'POST', `/api/safety/block/${cat.userId}`)).status).toBe(200);
    const blocked = (await t.events('user.blocked')).find((e) => e.payload.blockerId === dan.userId);
    expect(blocked?.payload.endedMatchId).toBe(match.matchId);
    expect(await gate.read(cat.userId, dan.userId)).toEqual({ version: 1, open: false });
  });

  it('the gate of an older match than the pair’s newest event is not taken for the pair’s match', async () => {
    const [eve, fay] = [await t.member({ name: 'Eve' }), await t.member({ name: 'Fay' })];
    // Fay blocked Eve and unblocked (pair events 1 and 2); a gate entry of a match under version 0 lingers.
    expect((await t.api(fay, 'POST', `/api/safety/block/${eve.userId}`)).status).toBe(200);
    expect((await t.api(fay, 'DELETE', `/api/safety/block/${eve.userId}`)).status).toBe(200);
    // (Written after the block's close it would rank below it; here the entry is as if the block's was lost.)
    await t.bed.app.get<Redis>(REDIS).del(gate.key(eve.userId, fay.userId));
    await matchInGate(eve, fay, 0);
    expect((await t.api(eve, 'POST', `/api/safety/unmatch/${fay.userId}`)).status).toBe(404);
    expect(await t.events('match.ended')).toHaveLength(1);
  });

  it('an erased member’s match is not brought back from a gate entry that outlived the erasure', async () => {
    const [ivy, jon] = [await t.member({ name: 'Ivy' }), await t.member({ name: 'Jon' })];
    await matchInGate(ivy, jon);
    expect(await t.deliver('user.deleted', { userId: jon.userId, deletedAt: new Date().toISOString() })).toBe('handled');
    expect((await t.api(ivy, 'POST', `/api/safety/unmatch/${jon.userId}`)).status).toBe(404);
    const rows: unknown[] = await t.bed.dataSource.query('SELECT 1 FROM pair WHERE member_a = $1 OR member_b = $1', [jon.userId]);
    expect(rows).toEqual([]);
  });

  it('Redis unreachable while the gate is read: 503 (retryable), nothing ended; the retry ends the match', async () => {
    const [gus, hal] = [await t.member({ name: 'Gus' }), await t.member({ name: 'Hal' })];
    const match = await matchInGate(gus, hal);
    const read = jest.spyOn(gate, 'read').mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      expect((await t.api(gus, 'POST', `/api/safety/unmatch/${hal.userId}`)).status).toBe(503);
    } finally {
      read.mockRestore();
    }
    expect(await t.api(gus, 'POST', `/api/safety/unmatch/${hal.userId}`)).toEqual({ status: 200, body: { unmatched: true, matchId: match.matchId } });
  });
});

import { randomUUID } from 'node:crypto';
import { CallMessages, ErrorCode, orderedPairOf } from '@mate/contracts';
import { PairGate } from '@mate/server-kit';
import { ackError, startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';

/**
 * Issue 27 in calls: a match is callable the moment its like has answered. Matching opens the pair
 * gate with the match (id, time, pair version) after its commit and before its answer (ADR 0029);
 * here it is opened exactly so and match.created is delivered late or never, so only the gate lets
 * the pair call.
 */
describe('calls accept a match from the pair gate before match.created arrives (real PostgreSQL, Redis and gateway sockets)', () => {
  let bed: CallTestBed;
  let gate: PairGate;

  beforeAll(async () => {
    bed = await startCallTestBed('call-match-gate');
    gate = bed.service.app.get(PairGate);
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  const matchInGate = async (x: CallMember, y: CallMember, pairVersion = 0) => {
    const match = { matchId: randomUUID(), matchedAt: new Date(Date.now() - 5) };
    await gate.open(x.userId, y.userId, pairVersion, match);
    return match;
  };
  const callMatches = async (x: CallMember, y: CallMember) =>
    (await bed.service.dataSource.query('SELECT match_id FROM call_match WHERE member_a = $1 AND member_b = $2', orderedPairOf(x.userId, y.userId))) as {
      match_id: string;
    }[];

  it('rings at once, the call is answered; the late match.created records nothing more', async () => {
    const [ann, bob] = [await bed.member('Ann'), await bed.member('Bob')];
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(ackError(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);
    expect(await callMatches(ann, bob)).toEqual([]);

    const match = await matchInGate(ann, bob);
    expect(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).toMatchObject({ ok: true });
    expect(await b.next('call:incoming')).toMatchObject({ from: ann.userId, callerName: 'Ann' });
    expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
    await a.next('call:accepted');
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });

    const outcome = await bed.deliver('match.created', {
      matchId: match.matchId,
      userIds: orderedPairOf(ann.userId, bob.userId),
      createdAt: match.matchedAt.toISOString(),
      pairVersion: 0,
    });
    expect(outcome).toBe('handled');
    expect(await callMatches(ann, bob)).toEqual([{ match_id: match.matchId }]);
  });

  it('a block after the match still wins, whether calls heard of the match or not', async () => {
    const [cat, dan] = [await bed.member('Cat'), await bed.member('Dan')];
    const [c, d] = [await bed.connect(cat), await bed.connect(dan)];
    await matchInGate(cat, dan);
    // Dan blocks Cat (pair event 1): safety closes the gate above the match before its 200.
    await gate.close(dan.userId, cat.userId, 1);
    expect(ackError(await c.emit('call:initiate', { to: dan.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);
    expect(ackError(await d.emit('call:initiate', { to: cat.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);

    // The block applied here, and a gate entry of the older match still there (say, written late):
    // the projection's rule refuses it.
    const [eve, fay] = [await bed.member('Eve'), await bed.member('Fay')];
    const e = await bed.connect(eve);
    const userIds = orderedPairOf(eve.userId, fay.userId);
    const blocked = {
      pairId: userIds.join(':'),
      userIds,
      blockedBy: [fay.userId],
      blockerId: fay.userId,
      blockedId: eve.userId,
      endedMatchId: null,
      blockedAt: new Date().toISOString(),
    };
    expect(await bed.deliver('user.blocked', blocked, 1)).toBe('handled');
    await matchInGate(eve, fay, 0);
    expect(ackError(await e.emit('call:initiate', { to: fay.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);
    const [{ n }] = await bed.service.dataSource.query(
      'SELECT count(*)::int AS n FROM call_record WHERE caller_id = ANY($1::uuid[]) OR recipient_id = ANY($1::uuid[])',
      [[cat.userId, dan.userId, eve.userId, fay.userId]],
    );
    expect(n).toBe(0);
  });

  it('an erased member’s match is not brought back from a gate entry that outlived the erasure', async () => {
    const [ivy, jon] = [await bed.member('Ivy'), await bed.member('Jon')];
    const i = await bed.connect(ivy);
    await matchInGate(ivy, jon);
    expect(await bed.deliver('user.deleted', { userId: jon.userId, deletedAt: new Date().toISOString() })).toBe('handled');
    expect(ackError(await i.emit('call:initiate', { to: jon.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);
    expect(await callMatches(ivy, jon)).toEqual([]);
  });

  it('Redis unreachable while the gate is read: 503 (retryable), nothing recorded', async () => {
    const [gus, hal] = [await bed.member('Gus'), await bed.member('Hal')];
    const g = await bed.connect(gus);
    await matchInGate(gus, hal);
    const read = jest.spyOn(gate, 'read').mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      expect(ackError(await g.emit('call:initiate', { to: hal.userId, callerName: 'x' })).code).toBe(ErrorCode.ServiceUnavailable);
    } finally {
      read.mockRestore();
    }
    expect(await callMatches(gus, hal)).toEqual([]);
    expect(await g.emit('call:initiate', { to: hal.userId, callerName: 'x' })).toMatchObject({ ok: true });
  });
});

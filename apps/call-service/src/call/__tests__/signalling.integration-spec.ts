import { randomUUID } from 'node:crypto';
import {
  CALL_DISCONNECT_GRACE_MS,
  CALL_RING_TIMEOUT_MS,
  CallErrorCode,
  CallMessages,
  pairIdOf,
  type CallRecordDto,
  type CallStatsDto,
} from '@mate/contracts';
import { waitFor } from '@mate/server-kit/testing';
import { ackError, startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';
import { SIGNAL_TOO_LARGE } from '../calls.service';

const ordered = (a: CallMember, b: CallMember): [string, string] =>
  a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId];

describe('call signalling (real PostgreSQL, Redis and gateway sockets)', () => {
  let bed: CallTestBed;

  beforeAll(async () => {
    bed = await startCallTestBed('call-signal');
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  const records = async (m: CallMember) =>
    (await bed.api<CallRecordDto[]>(m, 'GET', '/api/calls/history')).body;
  const pairState = (a: CallMember, b: CallMember) => ({
    pairId: pairIdOf(a.userId, b.userId),
    userIds: ordered(a, b),
  });
  const block = (blocker: CallMember, blocked: CallMember, version: number, blockedBy = [blocker.userId]) =>
    bed.deliver(
      'user.blocked',
      {
        ...pairState(blocker, blocked),
        blockedBy,
        blockerId: blocker.userId,
        blockedId: blocked.userId,
        endedMatchId: null,
        blockedAt: new Date().toISOString(),
      },
      version,
    );

  /** A matched pair, both connected, the call rung and answered. */
  async function inCall() {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
    await a.next('call:accepted');
    return { ann, bob, a, b };
  }

  it('rings the callee with the caller’s profile name, never the name the client sent; refuses oneself', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(
      await a.emit('call:initiate', { to: bob.userId.toUpperCase(), callerName: 'The Queen' }),
    ).toMatchObject({ ok: true });
    expect(await b.next('call:incoming')).toEqual({ from: ann.userId, callerName: 'Ann' });
    expect(ackError(await a.emit('call:initiate', { to: ann.userId, callerName: 'Ann' }))).toMatchObject({
      error: CallMessages.callSelf,
      code: CallErrorCode.CallSelf,
    });
    expect(ackError(await a.emit('call:initiate', { to: 'nope', callerName: 'Ann' })).error).toMatch(/UUID/);
    // Unknown fields are refused (whitelist), and so is a signal without its payload.
    expect(
      ackError(await a.emit('call:accept', { to: bob.userId, status: 'completed' } as never)).error,
    ).toMatch(/status/);
    expect(ackError(await a.emit('call:signal', { to: bob.userId } as never)).error).toBe(
      'signal is required',
    );
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    expect(await b.next('call:ended')).toEqual({ from: ann.userId });
    expect(
      (await records(ann)).map((r) => [r.status, r.durationSeconds, r.callerName, r.recipientName]),
    ).toEqual([['missed', 0, 'Ann', 'Bob']]);
  });

  it('refuses members who are not matched, and records nothing', async () => {
    const [ann, cat] = [await bed.member('Ann'), await bed.member('Cat')];
    const [a, c] = [await bed.connect(ann), await bed.connect(cat)];
    expect(ackError(await a.emit('call:initiate', { to: cat.userId, callerName: 'Ann' }))).toMatchObject({
      error: CallMessages.notMatched,
      code: CallErrorCode.NotMatched,
    });
    expect(c.all('call:incoming')).toEqual([]);
    expect(await records(ann)).toEqual([]);
  });

  it('refuses a blocked pair both ways; an unblock restores nothing, a newer match does', async () => {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(await block(ann, bob, 1)).toBe('handled');
    expect(ackError(await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' })).error).toBe(
      CallMessages.notMatched,
    );
    expect(ackError(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).error).toBe(
      CallMessages.notMatched,
    );
    const unblocked = await bed.deliver(
      'user.unblocked',
      {
        ...pairState(ann, bob),
        blockedBy: [],
        blockerId: ann.userId,
        blockedId: bob.userId,
        unblockedAt: new Date().toISOString(),
      },
      2,
    );
    expect(unblocked).toBe('handled');
    expect(ackError(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).error).toBe(
      CallMessages.notMatched,
    );
    // A match made under an older pair version stays dead; one made under the newest is live.
    await bed.match(ann, bob, 1);
    expect(ackError(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).error).toBe(
      CallMessages.notMatched,
    );
    await bed.match(ann, bob, 2);
    expect(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).toMatchObject({ ok: true });
    expect(await b.emit('call:end', { to: ann.userId })).toEqual({ ok: true });
  });

  it('relays signals only between the two members of the active call; a third party can do nothing to it', async () => {
    const { ann, bob, a, b } = await inCall();
    const eve = await bed.member('Eve');
    await bed.match(eve, ann);
    const e = await bed.connect(eve);
    expect(await a.emit('call:signal', { to: bob.userId, signal: { type: 'offer', sdp: 'v=0' } })).toEqual({
      ok: true,
    });
    expect(await b.next('call:signal')).toEqual({ from: ann.userId, signal: { type: 'offer', sdp: 'v=0' } });
    expect(await b.emit('call:signal', { to: ann.userId, signal: { type: 'answer', sdp: 'v=0' } })).toEqual({
      ok: true,
    });
    expect(await a.next('call:signal')).toEqual({ from: bob.userId, signal: { type: 'answer', sdp: 'v=0' } });
    for (const [event, payload] of [
      ['call:signal', { to: ann.userId, signal: { candidate: 'x' } }],
      ['call:accept', { to: ann.userId }],
      ['call:reject', { to: ann.userId }],
      ['call:end', { to: ann.userId }],
      ['call:end', { to: bob.userId }],
    ] as const) {
      expect(ackError(await e.emit(event, payload as never))).toMatchObject({
        error: CallMessages.noActiveCall,
        code: CallErrorCode.NoActiveCall,
      });
    }
    // Eve is matched with Ann, but Ann is busy: recorded as failed.
    expect(ackError(await e.emit('call:initiate', { to: ann.userId, callerName: 'Eve' }))).toMatchObject({
      error: CallMessages.busy,
      code: CallErrorCode.Busy,
    });
    expect(
      ackError(await a.emit('call:signal', { to: bob.userId, signal: 'x'.repeat(17 * 1024) })),
    ).toMatchObject({ error: SIGNAL_TOO_LARGE, code: CallErrorCode.SignalTooLarge });
    expect(a.all('call:signal')).toHaveLength(1);
    expect(a.all('call:incoming')).toEqual([]);
    expect((await records(eve)).map((r) => r.status)).toEqual(['failed']);
    // Same server time for both: their order is by id, so compare as a set.
    expect((await records(ann)).map((r) => r.status).sort()).toEqual(['failed', 'in_progress']);
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
  });

  it('refuses a new call as busy when the caller is in a call, and records it failed', async () => {
    const { ann, bob, a } = await inCall();
    const cat = await bed.member('Cat');
    await bed.match(ann, cat);
    expect(ackError(await a.emit('call:initiate', { to: cat.userId, callerName: 'Ann' })).error).toBe(
      CallMessages.busy,
    );
    const history = await records(cat);
    expect(history.map((r) => [r.status, r.callerId, r.durationSeconds])).toEqual([
      ['failed', ann.userId, 0],
    ]);
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
  });

  it('completes a call with the duration the server measured from the answer to the end', async () => {
    const { ann, bob, a, b } = await inCall();
    bed.clock.advance(65_400);
    expect(await b.emit('call:end', { to: ann.userId })).toEqual({ ok: true });
    expect(await a.next('call:ended')).toEqual({ from: bob.userId });
    const [record] = await records(ann);
    expect(record).toMatchObject({
      status: 'completed',
      durationSeconds: 65,
      callerId: ann.userId,
      recipientId: bob.userId,
    });
    // Final: nothing changes it any more.
    expect(ackError(await a.emit('call:end', { to: bob.userId })).error).toBe(CallMessages.noActiveCall);
    expect(ackError(await b.emit('call:accept', { to: ann.userId })).error).toBe(CallMessages.noActiveCall);
    await expect(
      bed.service.dataSource.query(`UPDATE call_record SET status = 'failed' WHERE id = $1`, [record.id]),
    ).rejects.toThrow(/never changes/);
  });

  it('lets only the callee reject a ringing call', async () => {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' });
    await b.next('call:incoming');
    expect(ackError(await a.emit('call:reject', { to: bob.userId })).error).toBe(CallMessages.noActiveCall);
    expect(ackError(await a.emit('call:accept', { to: bob.userId })).error).toBe(CallMessages.noActiveCall);
    expect(await b.emit('call:reject', { to: ann.userId })).toEqual({ ok: true });
    expect(await a.next('call:rejected')).toEqual({ from: bob.userId });
    expect((await records(bob)).map((r) => [r.status, r.durationSeconds])).toEqual([['rejected', 0]]);
  });

  it('makes a call not answered within the ring timeout missed, telling both (manual clock)', async () => {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' });
    await b.next('call:incoming');
    bed.clock.advance(CALL_RING_TIMEOUT_MS - 1_000);
    expect(await bed.sweeper.sweep()).toEqual([]);
    bed.clock.advance(1_000);
    // Past the timeout an answer is refused even before a sweep ran.
    expect(ackError(await b.emit('call:accept', { to: ann.userId })).error).toBe(CallMessages.noActiveCall);
    expect((await bed.sweeper.sweep()).map((c) => c.status)).toEqual(['missed']);
    expect(await a.next('call:ended')).toEqual({ from: bob.userId });
    expect(await b.next('call:ended')).toEqual({ from: ann.userId });
    expect((await records(ann)).map((r) => r.status)).toEqual(['missed']);
  });

  it('ends the active call of a member whose sockets are all gone for longer than the grace', async () => {
    const { ann, bob, a } = await inCall();
    bed.presence.offline.add(bob.userId);
    await bed.sweeper.sweep();
    bed.clock.advance(CALL_DISCONNECT_GRACE_MS - 1_000);
    // Back within the grace: the call goes on.
    bed.presence.offline.delete(bob.userId);
    expect(await bed.sweeper.sweep()).toEqual([]);
    bed.presence.offline.add(bob.userId);
    await bed.sweeper.sweep();
    bed.clock.advance(CALL_DISCONNECT_GRACE_MS);
    expect(await bed.sweeper.sweep()).toEqual([]);
    bed.clock.advance(1_000);
    expect((await bed.sweeper.sweep()).map((c) => c.status)).toEqual(['completed']);
    expect(await a.next('call:ended')).toEqual({ from: bob.userId });
    bed.presence.offline.delete(bob.userId);
    expect((await records(ann))[0]).toMatchObject({
      status: 'completed',
      durationSeconds: (2 * CALL_DISCONNECT_GRACE_MS) / 1000,
    });
  });

  it('ends the call once the member’s last socket is gone longer than the grace (presence from the real gateway)', async () => {
    const { ann, bob, a, b } = await inCall();
    const second = await bed.connect(bob);
    b.socket.disconnect();
    // One socket left: still online.
    await bed.sweeper.sweep();
    bed.clock.advance(CALL_DISCONNECT_GRACE_MS + 1_000);
    expect(await bed.sweeper.sweep()).toEqual([]);
    second.socket.disconnect();
    await waitFor(async () => ((await bed.presence.onlineOf([bob.userId])).size === 0 ? true : null), {
      timeoutMs: 5_000,
      intervalMs: 20,
      what: 'bob offline',
    });
    expect(await bed.sweeper.sweep()).toEqual([]);
    bed.clock.advance(CALL_DISCONNECT_GRACE_MS + 1_000);
    expect((await bed.sweeper.sweep()).map((c) => c.status)).toEqual(['completed']);
    expect(await a.next('call:ended')).toEqual({ from: bob.userId });
    expect((await records(ann))[0]).toMatchObject({ status: 'completed', recipientId: bob.userId });
  });

  it('lets one of two racing transitions win: accept against end, and two calls at once', async () => {
    for (let i = 0; i < 5; i++) {
      const [ann, bob] = await bed.pair();
      const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
      await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' });
      const [accepted, ended] = await Promise.all([
        b.emit('call:accept', { to: ann.userId }),
        a.emit('call:end', { to: bob.userId }),
      ]);
      expect(ended).toEqual({ ok: true });
      const [record] = await records(ann);
      expect(record.status).toBe((accepted as { ok?: boolean }).ok ? 'completed' : 'missed');
      a.socket.disconnect();
      b.socket.disconnect();
    }
    const [cat, dan] = await bed.pair('Cat', 'Dan');
    const [c, d] = [await bed.connect(cat), await bed.connect(dan)];
    const answers = await Promise.all([
      c.emit('call:initiate', { to: dan.userId, callerName: 'Cat' }),
      d.emit('call:initiate', { to: cat.userId, callerName: 'Dan' }),
    ]);
    expect(answers.filter((x) => (x as { ok?: boolean }).ok)).toHaveLength(1);
    expect((await records(cat)).map((r) => r.status).sort()).toEqual(['failed', 'in_progress']);
  });

  it('relays subtitles, normalized, only to the other member of an answered call', async () => {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(ackError(await a.emit('subtitle', { recipientId: bob.userId, text: 'hi' })).error).toBe(
      CallMessages.noActiveCall,
    );
    await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' });
    // Ringing is not answered: nothing is relayed yet.
    expect(ackError(await a.emit('subtitle', { recipientId: bob.userId, text: 'hi' })).error).toBe(
      CallMessages.noActiveCall,
    );
    await b.emit('call:accept', { to: ann.userId });
    expect(
      await a.emit('subtitle', { recipientId: bob.userId, text: '  hello\u0007\n there\u202e ' }),
    ).toEqual({ ok: true });
    expect(await b.next('subtitle')).toEqual({ userId: ann.userId, text: 'hello there' });
    expect(ackError(await a.emit('subtitle', { recipientId: bob.userId, text: 'x'.repeat(501) }))).toMatchObject({
      error: CallMessages.subtitleTooLong,
      code: CallErrorCode.SubtitleTooLong,
    });
    const eve = await bed.member('Eve');
    const e = await bed.connect(eve);
    expect(ackError(await e.emit('subtitle', { recipientId: bob.userId, text: 'psst' })).error).toBe(
      CallMessages.noActiveCall,
    );
    expect(b.all('subtitle')).toHaveLength(1);
    await a.emit('call:end', { to: bob.userId });
  });

  it('ends the active call when one blocks the other or unmatches', async () => {
    const first = await inCall();
    expect(await block(first.bob, first.ann, 1)).toBe('handled');
    expect(await first.a.next('call:ended')).toEqual({ from: first.bob.userId });
    expect(await first.b.next('call:ended')).toEqual({ from: first.ann.userId });
    expect((await records(first.ann))[0].status).toBe('completed');

    const second = await inCall();
    const ended = await bed.deliver(
      'match.ended',
      {
        ...pairState(second.ann, second.bob),
        blockedBy: [],
        matchId: randomUUID(),
        endedBy: second.ann.userId,
        reason: 'unmatch',
        endedAt: new Date().toISOString(),
      },
      1,
    );
    expect(ended).toBe('handled');
    expect(await second.b.next('call:ended')).toEqual({ from: second.ann.userId });
    expect(
      ackError(await second.a.emit('call:initiate', { to: second.bob.userId, callerName: 'Ann' })).error,
    ).toBe(CallMessages.notMatched);
  });

  it('answers history newest first with paging, only the member’s own calls, one call only to its members, and the stats', async () => {
    const [ann, bob] = await bed.pair();
    const eve = await bed.member('Eve');
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    const durations = [10, 20];
    for (const seconds of durations) {
      await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' });
      await b.emit('call:accept', { to: ann.userId });
      bed.clock.advance(seconds * 1000);
      await a.emit('call:end', { to: bob.userId });
    }
    await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' });
    await a.emit('call:reject', { to: bob.userId });
    bed.clock.advance(1000);
    await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' });
    await b.emit('call:end', { to: ann.userId });

    const all = await records(ann);
    expect(all.map((r) => r.status)).toEqual(['missed', 'rejected', 'completed', 'completed']);
    const page1 = await bed.api<CallRecordDto[]>(ann, 'GET', '/api/calls/history?limit=2&offset=0');
    const page2 = await bed.api<CallRecordDto[]>(ann, 'GET', '/api/calls/history?limit=2&offset=2');
    expect([...page1.body, ...page2.body].map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect((await bed.api(ann, 'GET', '/api/calls/history?limit=0')).status).toBe(400);
    expect((await bed.api(ann, 'GET', '/api/calls/history?limit=101')).status).toBe(400);
    expect((await bed.api(ann, 'GET', '/api/calls/history?offset=-1')).status).toBe(400);
    expect(await records(eve)).toEqual([]);

    expect((await bed.api(bob, 'GET', `/api/calls/${all[0].id}`)).body).toEqual(all[0]);
    expect(await bed.api(eve, 'GET', `/api/calls/${all[0].id}`)).toMatchObject({
      status: 404,
      body: { error: CallMessages.callNotFound, code: CallErrorCode.CallNotFound },
    });
    expect((await bed.api(eve, 'GET', '/api/calls/not-a-uuid')).status).toBe(400);

    const stats = await bed.api<CallStatsDto>(ann, 'GET', '/api/calls/stats');
    expect(stats.body).toEqual({
      totalCalls: 4,
      completedCalls: 2,
      successRate: 0.5,
      averageDurationSeconds: 15,
    });
    expect((await bed.api<CallStatsDto>(eve, 'GET', '/api/calls/stats')).body).toEqual({
      totalCalls: 0,
      completedCalls: 0,
      successRate: 0,
      averageDurationSeconds: 0,
    });
  });
});

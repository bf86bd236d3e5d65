import { randomUUID } from 'node:crypto';
import {
  CALL_DISCONNECT_GRACE_MS,
  CALL_RING_TIMEOUT_MS,
  pairIdOf,
  type CallEndedPayload,
  type CallRecordDto,
} from '@mate/contracts';
import { startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';

jest.setTimeout(60_000);

/**
 * call.ended (issue 13): written in the transaction that moves a call to its final status, exactly
 * once per call, whichever way it ends: hang-up, reject, busy, ring timeout and disconnect
 * (sweeper), a pair event, a suspension, an erasure.
 */
describe('call.ended facts (real PostgreSQL, Redis and gateway sockets)', () => {
  let bed: CallTestBed;

  beforeAll(async () => {
    bed = await startCallTestBed('call-ended');
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  const records = async (m: CallMember) =>
    (await bed.api<CallRecordDto[]>(m, 'GET', '/api/calls/history')).body;
  /** The call.ended facts in the outbox naming the call. */
  const factsOf = async (callId: string): Promise<CallEndedPayload[]> =>
    (
      await bed.service.dataSource.query<{ payload: CallEndedPayload }[]>(
        `SELECT body->'payload' AS payload FROM outbox WHERE name = 'call.ended' AND body->'payload'->>'callId' = $1`,
        [callId],
      )
    ).map((r) => r.payload);
  const endedAtOf = async (callId: string): Promise<string> =>
    (
      await bed.service.dataSource.query<{ ended_at: Date }[]>(
        'SELECT ended_at FROM call_record WHERE id = $1',
        [callId],
      )
    )[0].ended_at.toISOString();

  /** A matched pair, both connected, the call rung (and answered when `answer`). */
  async function ringing(answer: boolean) {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    if (answer) {
      expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
      await a.next('call:accepted');
    }
    const [record] = await records(ann);
    expect(await factsOf(record.id)).toEqual([]);
    return { ann, bob, a, b, callId: record.id };
  }

  it('a hang-up after the answer: completed with the measured duration, once', async () => {
    const { ann, bob, a, callId } = await ringing(true);
    bed.clock.advance(42_000);
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    // Ending again is refused and publishes nothing more.
    expect(await a.emit('call:end', { to: bob.userId })).toMatchObject({ error: expect.any(String) });
    expect(await factsOf(callId)).toEqual([
      {
        callId,
        callerId: ann.userId,
        calleeId: bob.userId,
        status: 'completed',
        durationSeconds: 42,
        endedAt: await endedAtOf(callId),
      },
    ]);
  });

  it('a hang-up before the answer is missed; a reject is rejected; a busy attempt is failed', async () => {
    const first = await ringing(false);
    expect(await first.b.emit('call:end', { to: first.ann.userId })).toEqual({ ok: true });
    expect(await factsOf(first.callId)).toEqual([
      expect.objectContaining({ status: 'missed', durationSeconds: 0 }),
    ]);

    const second = await ringing(false);
    expect(await second.b.emit('call:reject', { to: second.ann.userId })).toEqual({ ok: true });
    expect(await factsOf(second.callId)).toEqual([
      expect.objectContaining({
        callerId: second.ann.userId,
        calleeId: second.bob.userId,
        status: 'rejected',
        durationSeconds: 0,
      }),
    ]);

    // Ann is in a call with Bob; her call to Cat is recorded failed (busy), with its fact.
    const third = await ringing(true);
    const [cat] = await bed.pair();
    await bed.match(third.ann, cat);
    expect(await third.a.emit('call:initiate', { to: cat.userId, callerName: 'x' })).toMatchObject({
      error: expect.any(String),
    });
    const failedId = (await records(cat)).find((r) => r.status === 'failed')?.id ?? 'none';
    expect(await factsOf(failedId)).toEqual([
      {
        callId: failedId,
        callerId: third.ann.userId,
        calleeId: cat.userId,
        status: 'failed',
        durationSeconds: 0,
        endedAt: await endedAtOf(failedId),
      },
    ]);
    expect(await factsOf(third.callId)).toEqual([]);
    expect(await third.a.emit('call:end', { to: third.bob.userId })).toEqual({ ok: true });
  });

  it('the sweeper: ring timeout (missed) and a member gone past the grace (completed), once each', async () => {
    const ring = await ringing(false);
    bed.clock.advance(CALL_RING_TIMEOUT_MS);
    await bed.sweeper.sweep();
    await bed.sweeper.sweep();
    expect(await factsOf(ring.callId)).toEqual([
      expect.objectContaining({ status: 'missed', durationSeconds: 0 }),
    ]);

    const gone = await ringing(true);
    bed.presence.offline.add(gone.bob.userId);
    try {
      await bed.sweeper.sweep();
      bed.clock.advance(CALL_DISCONNECT_GRACE_MS + 1_000);
      expect((await bed.sweeper.sweep()).map((c) => c.id)).toContain(gone.callId);
      await bed.sweeper.sweep();
    } finally {
      bed.presence.offline.delete(gone.bob.userId);
    }
    expect(await factsOf(gone.callId)).toEqual([
      expect.objectContaining({
        status: 'completed',
        durationSeconds: (CALL_DISCONNECT_GRACE_MS + 1_000) / 1000,
      }),
    ]);
  });

  it('a block, a suspension and an erasure end the call with its fact; the erased member is not named', async () => {
    const blocked = await ringing(true);
    const userIds: [string, string] =
      blocked.ann.userId < blocked.bob.userId
        ? [blocked.ann.userId, blocked.bob.userId]
        : [blocked.bob.userId, blocked.ann.userId];
    const blockEvent = {
      pairId: pairIdOf(blocked.ann.userId, blocked.bob.userId),
      userIds,
      blockedBy: [blocked.bob.userId],
      blockerId: blocked.bob.userId,
      blockedId: blocked.ann.userId,
      endedMatchId: null,
      blockedAt: new Date().toISOString(),
    };
    expect(await bed.deliver('user.blocked', blockEvent, 1_000)).toBe('handled');
    expect(await factsOf(blocked.callId)).toEqual([expect.objectContaining({ status: 'completed' })]);

    const suspended = await ringing(false);
    expect(
      await bed.deliver(
        'user.suspended',
        {
          userId: suspended.bob.userId,
          suspended: true,
          reason: 'Spam',
          suspendedAt: new Date().toISOString(),
        },
        1_000,
      ),
    ).toBe('handled');
    expect(await factsOf(suspended.callId)).toEqual([expect.objectContaining({ status: 'missed' })]);

    const erased = await ringing(true);
    expect(
      await bed.deliver('user.deleted', { userId: erased.bob.userId, deletedAt: new Date().toISOString() }),
    ).toBe('handled');
    const [fact] = await factsOf(erased.callId);
    expect(fact).toMatchObject({ callerId: erased.ann.userId, status: 'completed' });
    expect(fact.calleeId).not.toBe(erased.bob.userId);
    expect(fact.calleeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await factsOf(erased.callId)).toHaveLength(1);
    // Delivered again (a redelivery): nothing more.
    expect(
      await bed.deliver('user.deleted', { userId: erased.bob.userId, deletedAt: new Date().toISOString() }),
    ).not.toBe('failed');
    expect(await factsOf(erased.callId)).toHaveLength(1);
    expect(await factsOf(randomUUID())).toEqual([]);
  });

  it('racing accept and hang-up: one final status, one fact', async () => {
    for (let i = 0; i < 3; i++) {
      const { ann, bob, a, b, callId } = await ringing(false);
      await Promise.all([b.emit('call:accept', { to: ann.userId }), a.emit('call:end', { to: bob.userId })]);
      const [record] = await records(ann);
      const facts = await factsOf(callId);
      expect(facts).toHaveLength(1);
      expect(facts[0].status).toBe(record.status);
      a.socket.disconnect();
      b.socket.disconnect();
    }
  });
});

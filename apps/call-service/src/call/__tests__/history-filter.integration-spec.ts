import {
  CALL_HISTORY_HAS_MORE_HEADER,
  CallMessages,
  DELETED_MEMBER_NAME,
  pairIdOf,
  type CallRecordDto,
} from '@mate/contracts';
import { aProfile, startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';

/**
 * Issue 25 point 8: Call History's filters apply to the whole history on the server (then page),
 * each record carries both members' pictures and whether the pair may still call.
 */
describe('call history filtered by status, with pictures and callability (real PostgreSQL, Redis and gateway)', () => {
  let bed: CallTestBed;

  beforeAll(async () => {
    bed = await startCallTestBed('call-history-filter');
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  const history = async (m: CallMember, query = '') => {
    const res = await bed.apiWithHeaders<CallRecordDto[]>(m, `/api/calls/history${query}`);
    expect(res.status).toBe(200);
    return { calls: res.body, hasMore: res.headers.get(CALL_HISTORY_HAS_MORE_HEADER) };
  };

  /** caller rings callee; answered calls last `seconds`, unanswered ones are hung up: missed. */
  async function placeCall(caller: CallMember, callee: CallMember, answered: boolean, seconds = 5) {
    const [a, b] = [await bed.connect(caller), await bed.connect(callee)];
    expect(await a.emit('call:initiate', { to: callee.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    if (answered) {
      expect(await b.emit('call:accept', { to: caller.userId })).toEqual({ ok: true });
      bed.clock.advance(seconds * 1000);
    }
    expect(await a.emit('call:end', { to: callee.userId })).toEqual({ ok: true });
    a.socket.disconnect();
    b.socket.disconnect();
    bed.clock.advance(1000);
  }

  it('finds a completed call that sits on page 2 of the whole history on page 1 of Completed, and pages each filter', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    await placeCall(ann, bob, true, 42);
    // Three newer unanswered calls: one the member placed, two they did not pick up.
    await placeCall(ann, bob, false);
    await placeCall(bob, ann, false);
    await placeCall(bob, ann, false);

    const page1 = await history(ann, '?limit=2&offset=0');
    expect(page1.calls.map((c) => c.status)).toEqual(['missed', 'missed']);
    expect(page1.hasMore).toBe('true');
    const page2 = await history(ann, '?limit=2&offset=2');
    expect(page2.calls.map((c) => c.status)).toEqual(['missed', 'completed']);
    expect(page2.hasMore).toBe('false');

    const completed = await history(ann, '?limit=2&offset=0&status=completed');
    expect(completed.calls).toEqual([page2.calls[1]]);
    expect(completed.calls[0]).toMatchObject({ callerId: ann.userId, durationSeconds: 42 });
    expect(completed.hasMore).toBe('false');

    // "missed" is the record's status for both members: the call Ann placed that Bob did not
    // answer, and the two Bob placed that Ann missed (the definition the list shows today).
    const missed1 = await history(ann, '?limit=2&offset=0&status=missed');
    const missed2 = await history(ann, '?limit=2&offset=2&status=missed');
    expect([...missed1.calls, ...missed2.calls].map((c) => c.callerId)).toEqual([bob.userId, bob.userId, ann.userId]);
    expect([missed1.hasMore, missed2.hasMore]).toEqual(['true', 'false']);
    expect((await history(bob, '?status=missed')).calls).toHaveLength(3);

    expect(await history(ann, '?status=rejected')).toEqual({ calls: [], hasMore: 'false' });
    expect(await history(ann, '?status=failed&limit=20')).toEqual({ calls: [], hasMore: 'false' });
  });

  it('refuses a status that is not a filter with 400 {error}', async () => {
    const ann = await bed.member('Ann');
    for (const status of ['in_progress', 'COMPLETED', 'all', '', 'completed,missed']) {
      expect(await bed.api(ann, 'GET', `/api/calls/history?status=${encodeURIComponent(status)}`)).toMatchObject({
        status: 400,
        body: { error: CallMessages.badHistoryStatus },
      });
    }
    expect((await bed.api(ann, 'GET', '/api/calls/history?status=completed&status=missed')).status).toBe(400);
    expect((await bed.api(null, 'GET', '/api/calls/history?status=completed')).status).toBe(401);
  });

  it('shows a member only their own calls under every filter', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [eve, cat] = await bed.pair('Eve', 'Cat');
    await placeCall(ann, bob, true);
    await placeCall(eve, cat, true);
    await placeCall(cat, eve, false);

    const anns = await history(ann, '?status=completed');
    expect(anns.calls.map((c) => [c.callerId, c.recipientId])).toEqual([[ann.userId, bob.userId]]);
    expect((await history(ann, '?status=missed')).calls).toEqual([]);
    const eves = await history(eve, '?status=completed');
    expect(eves.calls.map((c) => [c.callerId, c.recipientId])).toEqual([[eve.userId, cat.userId]]);
    expect((await history(eve)).calls).toHaveLength(2);
  });

  it('carries both pictures and whether the pair may still call: no longer after a block, a suspension or a deletion', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const picture = (m: CallMember, version: number, url: string) =>
      bed.deliver('profile.updated', { ...aProfile(m.userId, m.name), hasPhoto: true, profilePicture: url }, version);
    expect(await picture(bob, 2, '/api/photos/files/bob.jpg')).toBe('handled');
    expect(await picture(ann, 2, '/api/photos/files/ann.jpg')).toBe('handled');
    await placeCall(ann, bob, true);

    const [call] = (await history(ann)).calls;
    expect(call).toMatchObject({
      callerName: 'Ann',
      recipientName: 'Bob',
      callerProfilePicture: '/api/photos/files/ann.jpg',
      recipientProfilePicture: '/api/photos/files/bob.jpg',
      callable: true,
    });
    expect((await bed.api<CallRecordDto>(bob, 'GET', `/api/calls/${call.id}`)).body).toEqual(call);

    // A block: the pair may no longer call.
    const userIds = ann.userId < bob.userId ? [ann.userId, bob.userId] : [bob.userId, ann.userId];
    expect(
      await bed.deliver(
        'user.blocked',
        {
          pairId: pairIdOf(ann.userId, bob.userId),
          userIds: userIds as [string, string],
          blockedBy: [bob.userId],
          blockerId: bob.userId,
          blockedId: ann.userId,
          endedMatchId: null,
          blockedAt: new Date().toISOString(),
        },
        1,
      ),
    ).toBe('handled');
    expect((await history(ann)).calls[0].callable).toBe(false);

    // A suspended member: not callable, and no picture (their profile is hidden from everyone).
    const [cy, dee] = await bed.pair('Cy', 'Dee');
    expect(await picture(dee, 2, '/api/photos/files/dee.jpg')).toBe('handled');
    await placeCall(cy, dee, false);
    expect((await history(cy)).calls[0]).toMatchObject({ recipientProfilePicture: '/api/photos/files/dee.jpg', callable: true });
    expect(
      await bed.deliver('user.suspended', { userId: dee.userId, suspended: true, reason: 'Spam', suspendedAt: new Date().toISOString() }, 1),
    ).toBe('handled');
    expect((await history(cy)).calls[0]).toMatchObject({ recipientProfilePicture: null, callable: false });

    // A deleted member: 'Unknown User', no picture, not callable.
    const [fay, gus] = await bed.pair('Fay', 'Gus');
    expect(await picture(gus, 2, '/api/photos/files/gus.jpg')).toBe('handled');
    await placeCall(fay, gus, true);
    expect(await bed.deliver('user.deleted', { userId: gus.userId, deletedAt: new Date().toISOString() })).toBe('handled');
    expect((await history(fay)).calls[0]).toMatchObject({
      recipientName: DELETED_MEMBER_NAME,
      recipientProfilePicture: null,
      callable: false,
    });
  });
});

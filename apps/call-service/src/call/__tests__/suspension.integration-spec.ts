import { CallMessages, type CallRecordDto } from '@mate/contracts';
import { waitFor } from '@mate/server-kit/testing';
import { ackError, startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';

/**
 * Issue 13 in calls: auth-service's user.suspended / user.unsuspended (the whole suspension state
 * on the `user` aggregate), through the real consumer.
 */
describe('calls honour a suspension (real PostgreSQL, Redis and gateway sockets)', () => {
  let bed: CallTestBed;

  beforeAll(async () => {
    bed = await startCallTestBed('call-suspension');
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  const suspend = (member: CallMember, version: number) =>
    bed.deliver(
      'user.suspended',
      { userId: member.userId, suspended: true, reason: 'Spam', suspendedAt: new Date().toISOString() },
      version,
    );
  const unsuspend = (member: CallMember, version: number) =>
    bed.deliver(
      'user.unsuspended',
      { userId: member.userId, suspended: false, unsuspendedAt: new Date().toISOString() },
      version,
    );
  const records = async (m: CallMember) =>
    (await bed.api<CallRecordDto[]>(m, 'GET', '/api/calls/history')).body;

  it('refuses a call to or from a suspended member, recording nothing; unsuspend makes the match callable again', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(await suspend(ann, 1)).toBe('handled');
    expect(ackError(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).error).toBe(
      CallMessages.notMatched,
    );
    expect(ackError(await a.emit('call:initiate', { to: bob.userId, callerName: 'Ann' })).error).toBe(
      CallMessages.notMatched,
    );
    expect(await records(bob)).toEqual([]);

    expect(await unsuspend(ann, 2)).toBe('handled');
    expect(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).toMatchObject({ ok: true });
    expect(await a.next('call:incoming')).toEqual({ from: bob.userId, callerName: 'Bob' });
    expect(await b.emit('call:end', { to: ann.userId })).toEqual({ ok: true });
  });

  it('ends an active call with a member who is suspended (call:ended to the other), and only theirs', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [cat, dan] = await bed.pair('Cat', 'Dan');
    const [a, b, c, d] = [
      await bed.connect(ann),
      await bed.connect(bob),
      await bed.connect(cat),
      await bed.connect(dan),
    ];
    expect(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
    await a.next('call:accepted');
    expect(await c.emit('call:initiate', { to: dan.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await d.next('call:incoming');

    expect(await suspend(bob, 1)).toBe('handled');
    expect(await a.next('call:ended')).toEqual({ from: bob.userId });
    await waitFor(async () => (await records(ann))[0]?.status === 'completed');
    expect((await records(dan)).map((r) => r.status)).toEqual(['in_progress']);
    expect(ackError(await a.emit('call:end', { to: bob.userId })).error).toBe(CallMessages.noActiveCall);
    expect(await c.emit('call:end', { to: dan.userId })).toEqual({ ok: true });
  });

  it('skips a late user.suspended older than the unsuspend already applied', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(await unsuspend(ann, 3)).toBe('handled');
    expect(await suspend(ann, 2)).toBe('stale');
    expect(await b.emit('call:initiate', { to: ann.userId, callerName: 'Bob' })).toMatchObject({ ok: true });
    await a.next('call:incoming');
    expect(await b.emit('call:end', { to: ann.userId })).toEqual({ ok: true });
  });
});

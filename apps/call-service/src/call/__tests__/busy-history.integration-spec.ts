import { CallMessages, type CallRecordDto, type CallStatsDto } from '@mate/contracts';
import {
  ackError,
  startCallTestBed,
  type CallMember,
  type CallTestBed,
  type MemberConnection,
} from '../../__tests__/call-test-bed';

jest.setTimeout(60_000);

/**
 * Issue 24 item 7: a match calling a member who is already in a call got 409 and wrote a `failed`
 * record to both histories each time (19 in a minute). Now a busy attempt is recorded once per
 * caller and callee while the calls that keep them busy last: the callee's Call History shows
 * one "tried to reach you" entry, the caller's one failed attempt, and the caller is still told
 * "busy" every time.
 */
describe('busy calls do not fill the history (real PostgreSQL, Redis and gateway sockets)', () => {
  let bed: CallTestBed;

  beforeAll(async () => {
    bed = await startCallTestBed('call-busy-history');
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  const history = async (m: CallMember) => {
    const res = await bed.api<CallRecordDto[]>(m, 'GET', '/api/calls/history');
    expect(res.status).toBe(200);
    return res.body;
  };
  const from = (records: CallRecordDto[], caller: CallMember) =>
    records.filter((r) => r.callerId === caller.userId);

  /** Two members in an answered call. */
  async function inCall(
    caller: CallMember,
    callee: CallMember,
  ): Promise<[MemberConnection, MemberConnection]> {
    const [a, b] = [await bed.connect(caller), await bed.connect(callee)];
    expect(await a.emit('call:initiate', { to: callee.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    expect(await b.emit('call:accept', { to: caller.userId })).toEqual({ ok: true });
    await a.next('call:accepted');
    return [a, b];
  }

  /** `times` calls, each refused busy, the server's clock moving 10 s between them. */
  async function callBusy(caller: MemberConnection, callee: CallMember, times: number) {
    for (let i = 0; i < times; i++) {
      expect(ackError(await caller.emit('call:initiate', { to: callee.userId, callerName: 'x' })).error).toBe(
        CallMessages.busy,
      );
      bed.clock.advance(10_000);
    }
  }

  it('a match calling a busy member 5 times leaves one failed entry in each history, and is told busy each time', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const eve = await bed.member('Eve');
    await bed.match(eve, bob);
    const [a] = await inCall(ann, bob);
    const e = await bed.connect(eve);
    await callBusy(e, bob, 5);

    const bobs = await history(bob);
    expect(from(bobs, eve).map((r) => [r.status, r.recipientId, r.durationSeconds])).toEqual([
      ['failed', bob.userId, 0],
    ]);
    expect(from(bobs, ann).map((r) => r.status)).toEqual(['in_progress']);
    expect((await history(eve)).map((r) => [r.status, r.recipientId])).toEqual([['failed', bob.userId]]);
    const stats = (await bed.api<CallStatsDto>(eve, 'GET', '/api/calls/stats')).body;
    expect(stats.totalCalls).toBe(1);
    // The member in the call was not disturbed.
    expect(a.all('call:incoming')).toEqual([]);
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
  });

  it('each caller gets their own entry, and a later call that keeps the callee busy is a new one', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [eve, cat] = [await bed.member('Eve'), await bed.member('Cat')];
    await bed.match(eve, bob);
    await bed.match(cat, bob);
    const [e, c] = [await bed.connect(eve), await bed.connect(cat)];

    const [a] = await inCall(ann, bob);
    await callBusy(e, bob, 5);
    await callBusy(c, bob, 5);
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    bed.clock.advance(60_000);
    const [a2] = await inCall(ann, bob);
    await callBusy(e, bob, 5);

    const bobs = await history(bob);
    expect(from(bobs, eve).map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(from(bobs, cat).map((r) => r.status)).toEqual(['failed']);
    expect(from(bobs, ann).map((r) => r.status)).toEqual(['in_progress', 'completed']);
    expect(await a2.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
  });

  it('a caller who is in a call themselves is refused busy, recorded once for the member they tried', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const cat = await bed.member('Cat');
    await bed.match(ann, cat);
    const [a] = await inCall(ann, bob);
    await callBusy(a, cat, 5);
    expect((await history(cat)).map((r) => [r.status, r.callerId])).toEqual([['failed', ann.userId]]);
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
  });
});

import { CallMessages } from '@mate/contracts';
import { PairGate } from '@mate/server-kit';
import { ackError, startCallTestBed, type CallTestBed } from '../../__tests__/call-test-bed';

/**
 * Issue 24 item 6 in calls: once a block or an unmatch has answered, the other member can neither
 * ring, answer, signal nor send subtitles, although call-service learns of it only when safety's
 * event arrives. safety closes the pair gate (ADR 0024) after its commit and before its answer;
 * here it is closed exactly as safety closes it, with no event delivered, so only the gate refuses.
 */
describe('calls honour the pair gate before the projection knows (real PostgreSQL, Redis and gateway sockets)', () => {
  let bed: CallTestBed;
  let gate: PairGate;

  beforeAll(async () => {
    bed = await startCallTestBed('call-pair-gate');
    gate = bed.service.app.get(PairGate);
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it('refuses a new call and relays no signal or subtitle of an answered call once the gate closed', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    expect(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
    await a.next('call:accepted');

    // Bob blocks Ann: safety's commit made pair event 1, and the gate closed before its 200.
    await gate.close(bob.userId, ann.userId, 1);

    expect(ackError(await a.emit('call:signal', { to: bob.userId, signal: { type: 'offer', sdp: 'v=0' } })).error).toBe(
      CallMessages.noActiveCall,
    );
    expect(ackError(await b.emit('call:signal', { to: ann.userId, signal: { type: 'answer', sdp: 'v=0' } })).error).toBe(
      CallMessages.noActiveCall,
    );
    expect(ackError(await a.emit('subtitle', { recipientId: bob.userId, text: 'hello' })).error).toBe(CallMessages.noActiveCall);
    // Ending stays possible (it ends what the block ends anyway); a new call is refused as unmatched.
    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    await b.next('call:ended');
    expect(ackError(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);
    expect(ackError(await b.emit('call:initiate', { to: ann.userId, callerName: 'x' })).error).toBe(CallMessages.notMatched);
    expect(b.all('call:signal')).toHaveLength(0);
    expect(b.all('subtitle')).toHaveLength(0);
    expect(b.all('call:incoming')).toHaveLength(1);
    const [{ n }] = await bed.service.dataSource.query(
      'SELECT count(*)::int AS n FROM call_record WHERE caller_id = ANY($1::uuid[]) AND recipient_id = ANY($1::uuid[])',
      [[ann.userId, bob.userId]],
    );
    expect(n).toBe(1);
  });

  it('a ringing call can no longer be answered once the gate closed; a newer match is not held back', async () => {
    const [cat, dan] = await bed.pair('Cat', 'Dan');
    const [c, d] = [await bed.connect(cat), await bed.connect(dan)];
    expect(await c.emit('call:initiate', { to: dan.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await d.next('call:incoming');
    await gate.close(cat.userId, dan.userId, 1);
    expect(ackError(await d.emit('call:accept', { to: cat.userId })).error).toBe(CallMessages.noActiveCall);
    expect(c.all('call:accepted')).toHaveLength(0);
    expect(await c.emit('call:end', { to: dan.userId })).toEqual({ ok: true });

    // They matched again under pair version 2 (after an unblock): the gate closed at 1 refuses nothing.
    await bed.match(cat, dan, 2);
    expect(await d.emit('call:initiate', { to: cat.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await c.next('call:incoming');
    expect(await c.emit('call:accept', { to: dan.userId })).toEqual({ ok: true });
    expect(await c.emit('subtitle', { recipientId: dan.userId, text: 'hi again' })).toEqual({ ok: true });
    await d.next('subtitle');
  });
});

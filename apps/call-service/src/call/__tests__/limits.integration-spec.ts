import { CallMessages } from '@mate/contracts';
import { ackError, startCallTestBed, type CallTestBed } from '../../__tests__/call-test-bed';
import { TOO_MANY_SIGNALS, TOO_MANY_SUBTITLES } from '../call-rate-limits';

describe('call rate limits (per member, shared through Redis)', () => {
  let bed: CallTestBed;

  beforeAll(async () => {
    bed = await startCallTestBed('call-limits', {
      env: {
        CALL_CALLS_PER_MINUTE: '3',
        CALL_SIGNALS_PER_10_SECONDS: '3',
        CALL_SUBTITLES_PER_10_SECONDS: '2',
      },
    });
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it('refuses calls, signals and subtitles past the member’s limits, across the member’s sockets', async () => {
    const [ann, bob] = await bed.pair();
    const [a1, a2, b] = [await bed.connect(ann), await bed.connect(ann), await bed.connect(bob)];
    expect(await a1.emit('call:initiate', { to: bob.userId, callerName: 'Ann' })).toMatchObject({ ok: true });
    expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
    for (let i = 0; i < 3; i++)
      expect(await (i % 2 ? a1 : a2).emit('call:signal', { to: bob.userId, signal: { n: i } })).toEqual({
        ok: true,
      });
    expect(ackError(await a2.emit('call:signal', { to: bob.userId, signal: { n: 3 } })).error).toBe(
      TOO_MANY_SIGNALS,
    );
    for (let i = 0; i < 2; i++)
      expect(await a1.emit('subtitle', { recipientId: bob.userId, text: `line ${i}` })).toEqual({ ok: true });
    expect(ackError(await a2.emit('subtitle', { recipientId: bob.userId, text: 'more' })).error).toBe(
      TOO_MANY_SUBTITLES,
    );
    expect(b.all('call:signal')).toHaveLength(3);
    expect(await a1.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    // Two more attempts make three a minute; the fourth is refused and recorded nowhere.
    expect(await a2.emit('call:initiate', { to: bob.userId, callerName: 'Ann' })).toMatchObject({ ok: true });
    expect(await a2.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    expect(await a1.emit('call:initiate', { to: bob.userId, callerName: 'Ann' })).toMatchObject({ ok: true });
    expect(await a1.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    expect(ackError(await a1.emit('call:initiate', { to: bob.userId, callerName: 'Ann' })).error).toBe(
      CallMessages.tooManyCalls,
    );
    expect((await bed.api<unknown[]>(ann, 'GET', '/api/calls/history')).body).toHaveLength(3);
  });
});

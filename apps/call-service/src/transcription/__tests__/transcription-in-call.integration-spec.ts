import { CallErrorCode, CallMessages } from '@mate/contracts';
import { startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';
import { OpenAiCompatibleStandIn, webmChunk } from './openai-stand-in';

/**
 * Transcription asks the real call core whether the member is in an answered call: through the
 * real gateway (its upload route), with a stand-in for the outside transcription backend.
 */
describe('transcription during a real call (gateway, call core, stand-in OpenAI-compatible backend)', () => {
  let bed: CallTestBed;
  let standIn: OpenAiCompatibleStandIn;

  beforeAll(async () => {
    standIn = await new OpenAiCompatibleStandIn().start();
    standIn.transcription = { status: 200, body: { text: 'nice to meet you' } };
    bed = await startCallTestBed('call_media_in_call', { env: { TRANSCRIBE_URL: standIn.url } });
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
    await standIn?.close();
  }, 30_000);

  const transcribe = async (member: CallMember) => {
    const form = new FormData();
    form.append('audio', new Blob([webmChunk()], { type: 'audio/webm;codecs=opus' }), 'chunk.webm');
    const res = await fetch(`${bed.gateway.url}/api/whisper/transcribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const NO_ACTIVE_CALL = { status: 403, body: { error: CallMessages.noActiveCall, code: CallErrorCode.NoActiveCall } };

  it('only a member of an answered call is transcribed; ringing and ended calls are refused', async () => {
    const [ann, bob] = await bed.pair();
    const [a, b] = [await bed.connect(ann), await bed.connect(bob)];
    const [outsider] = await bed.pair();
    expect(await transcribe(ann)).toMatchObject(NO_ACTIVE_CALL);

    expect(await a.emit('call:initiate', { to: bob.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    expect(await transcribe(ann)).toMatchObject(NO_ACTIVE_CALL);
    expect(await transcribe(bob)).toMatchObject(NO_ACTIVE_CALL);

    expect(await b.emit('call:accept', { to: ann.userId })).toEqual({ ok: true });
    await a.next('call:accepted');
    expect(await transcribe(ann)).toEqual({ status: 200, body: { text: 'nice to meet you' } });
    expect(await transcribe(bob)).toEqual({ status: 200, body: { text: 'nice to meet you' } });
    expect(await transcribe(outsider)).toMatchObject({ status: 403 });

    expect(await a.emit('call:end', { to: bob.userId })).toEqual({ ok: true });
    await b.next('call:ended');
    expect(await transcribe(bob)).toMatchObject(NO_ACTIVE_CALL);
    expect(standIn.transcriptions()).toHaveLength(2);
  });

  it('status through the gateway', async () => {
    const [ann] = await bed.pair();
    expect(await bed.api(ann, 'GET', '/api/whisper/status')).toEqual({
      status: 200,
      body: { available: true },
    });
    expect(await bed.api(ann, 'GET', '/api/calls/ice-servers')).toEqual({
      status: 200,
      body: { iceServers: [], expiresAt: null },
    });
  });
});

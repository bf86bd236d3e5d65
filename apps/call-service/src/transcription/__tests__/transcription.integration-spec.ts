import { CallErrorCode, CallMessages, TRANSCRIBE_MAX_BYTES } from '@mate/contracts';
import { CLOCK, ManualClock } from '@mate/server-kit';
import { startServiceTestBed, type ServiceTestBed } from '@mate/server-kit/testing';
import { AppModule } from '../../app.module';
import { ActiveCallsLookup, type ActiveCalls } from '../active-calls';
import { OpenAiCompatibleStandIn, webmChunk } from './openai-stand-in';

/** Members the fake call core says are in an answered call (the call core has its own tests). */
class AnsweredCalls implements ActiveCalls {
  readonly members = new Set<string>();
  /** Members whose lookup fails (the call database away). */
  readonly broken = new Set<string>();
  async activeAnsweredCallOf(userId: string) {
    if (this.broken.has(userId)) throw new Error('connection terminated');
    return this.members.has(userId) ? { callId: `call-of-${userId}`, peerId: 'peer' } : null;
  }
}

async function upload(
  bed: ServiceTestBed,
  token: string | undefined,
  audio: Buffer | undefined,
  { type = 'audio/webm;codecs=opus', field = 'audio' } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  if (audio) form.append(field, new Blob([audio], { type }), 'chunk.webm');
  form.append('note', 'x');
  const res = await fetch(`${bed.url}/api/whisper/transcribe`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe('transcription and ICE servers, configured (real PostgreSQL and Redis; a stand-in transcription backend)', () => {
  let bed: ServiceTestBed;
  let standIn: OpenAiCompatibleStandIn;
  const calls = new AnsweredCalls();
  const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));

  const inCall = async () => {
    const member = await bed.signIn();
    calls.members.add(member.userId);
    return member;
  };

  beforeAll(async () => {
    standIn = await new OpenAiCompatibleStandIn().start();
    bed = await startServiceTestBed((env) => AppModule.forRoot(env), {
      label: 'call_media',
      env: {
        TRANSCRIBE_URL: standIn.url,
        TRANSCRIBE_API_KEY: 'sk-stand-in-key',
        TRANSCRIBE_PER_MINUTE: '4',
        STUN_URLS: 'stun:stun.example.org:3478',
        TURN_URLS: 'turn:turn.example.org:3478?transport=udp,turns:turn.example.org:5349?transport=tcp',
        TURN_SECRET: 'north-wind-turn-secret',
        TURN_TTL_SECONDS: '600',
        CALL_SWEEP_INTERVAL_MS: '0',
      },
      overrides: [
        { provide: ActiveCallsLookup, useValue: calls },
        { provide: CLOCK, useValue: clock },
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
    await standIn?.close();
  }, 30_000);

  it('hands a member STUN and their own TURN credentials, valid for TURN_TTL_SECONDS', async () => {
    const member = await bed.signIn();
    const res = await bed.call('GET', '/api/calls/ice-servers', { token: member.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const expiry = Date.parse('2026-03-01T12:10:00.000Z') / 1000;
    expect(res.body).toEqual({
      iceServers: [
        { urls: ['stun:stun.example.org:3478'] },
        {
          urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349?transport=tcp'],
          username: `${expiry}:${member.userId}`,
          credential: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
        },
      ],
      expiresAt: '2026-03-01T12:10:00.000Z',
    });
    expect((await bed.call('GET', '/api/calls/ice-servers')).status).toBe(401);
  });

  it('status is available while the backend passes its health check, checked at most every 30 s', async () => {
    const member = await bed.signIn();
    expect((await bed.call('GET', '/api/whisper/status')).status).toBe(401);
    expect(await bed.call('GET', '/api/whisper/status', { token: member.token })).toMatchObject({
      status: 200,
      body: { available: true },
    });
    const checks = () => standIn.requests.filter((r) => r.path === '/v1/models').length;
    const before = checks();
    standIn.healthStatus = 503;
    expect((await bed.call('GET', '/api/whisper/status', { token: member.token })).body).toEqual({
      available: true,
    });
    expect(checks()).toBe(before);
    clock.advance(30_001);
    expect((await bed.call('GET', '/api/whisper/status', { token: member.token })).body).toEqual({
      available: false,
    });
    expect(checks()).toBe(before + 1);
    // While it fails, a member in a call is told so before sending the body.
    const talker = await inCall();
    expect(await upload(bed, talker.token, webmChunk())).toEqual({
      status: 503,
      body: expect.objectContaining({ error: CallMessages.transcriptionUnavailable }),
    });
    standIn.healthStatus = 200;
    clock.advance(30_001);
    expect((await bed.call('GET', '/api/whisper/status', { token: member.token })).body).toEqual({
      available: true,
    });
  });

  it('transcribes a webm chunk of a member in an answered call through the backend: { text } as one clean line', async () => {
    const member = await inCall();
    standIn.transcription = { status: 200, body: { text: ' Hello\u0007 from\nthe call ' } };
    const sent = standIn.transcriptions().length;
    const audio = webmChunk(2048);
    expect(await upload(bed, member.token, audio)).toEqual({
      status: 200,
      body: { text: 'Hello from the call' },
    });
    const [req] = standIn.transcriptions().slice(sent);
    expect(req.authorization).toBe('Bearer sk-stand-in-key');
    expect(req.body.includes(audio)).toBe(true);
  });

  it('refuses a member who is not in an answered call (nothing reaches the backend)', async () => {
    const member = await bed.signIn();
    const sent = standIn.transcriptions().length;
    expect(await upload(bed, member.token, webmChunk())).toEqual({
      status: 403,
      body: expect.objectContaining({ error: CallMessages.noActiveCall }),
    });
    expect(await upload(bed, undefined, webmChunk())).toMatchObject({ status: 401 });
    expect(standIn.transcriptions().length).toBe(sent);
  });

  it('a call lookup that fails is 503, never 500', async () => {
    const member = await bed.signIn();
    calls.broken.add(member.userId);
    expect(await upload(bed, member.token, webmChunk())).toMatchObject({
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('checks the chunk: present, webm by its bytes and type, at most 1 MB', async () => {
    const sent = standIn.transcriptions().length;
    const a = await inCall();
    expect(await upload(bed, a.token, undefined)).toMatchObject({
      status: 400,
      body: { error: CallMessages.audioRequired, code: CallErrorCode.AudioRequired },
    });
    expect(await upload(bed, a.token, webmChunk(), { field: 'file' })).toMatchObject({
      status: 400,
      body: { error: CallMessages.audioRequired, code: CallErrorCode.AudioRequired },
    });
    expect(await upload(bed, a.token, Buffer.from('OggS'.padEnd(64, '\0')))).toMatchObject({
      status: 400,
      body: { error: CallMessages.audioType, code: CallErrorCode.AudioType },
    });
    const b = await inCall();
    expect(await upload(bed, b.token, webmChunk(), { type: 'audio/ogg' })).toMatchObject({
      status: 400,
      body: { error: CallMessages.audioType, code: CallErrorCode.AudioType },
    });
    expect(await upload(bed, b.token, webmChunk(TRANSCRIBE_MAX_BYTES + 1))).toMatchObject({
      status: 413,
      body: { error: CallMessages.audioTooLarge },
    });
    expect(standIn.transcriptions().length).toBe(sent);
    const c = await inCall();
    standIn.transcription = { status: 200, body: { text: 'exactly one megabyte' } };
    expect(await upload(bed, c.token, webmChunk(TRANSCRIBE_MAX_BYTES))).toEqual({
      status: 200,
      body: { text: 'exactly one megabyte' },
    });
  });

  it('limits each member (TRANSCRIBE_PER_MINUTE, every attempt counts) and not the others', async () => {
    standIn.transcription = { status: 200, body: { text: 'ok' } };
    const member = await inCall();
    for (let i = 0; i < 4; i++) expect((await upload(bed, member.token, webmChunk())).status).toBe(200);
    const refused = await upload(bed, member.token, webmChunk());
    expect(refused).toMatchObject({ status: 429, body: { error: CallMessages.tooManyTranscriptions } });
    const other = await inCall();
    expect((await upload(bed, other.token, webmChunk())).status).toBe(200);
  });

  it('a failing backend is 503 and makes the status unavailable until it passes a check again', async () => {
    const member = await inCall();
    standIn.transcription = { status: 502, body: { error: 'bad gateway' } };
    expect(await upload(bed, member.token, webmChunk())).toMatchObject({
      status: 503,
      body: { error: CallMessages.transcriptionUnavailable },
    });
    expect((await bed.call('GET', '/api/whisper/status', { token: member.token })).body).toEqual({
      available: false,
    });
    standIn.transcription = { status: 200, body: { text: 'back' } };
    clock.advance(30_001);
    expect((await bed.call('GET', '/api/whisper/status', { token: member.token })).body).toEqual({
      available: true,
    });
    expect(await upload(bed, member.token, webmChunk())).toEqual({ status: 200, body: { text: 'back' } });
  });
});

describe('transcription and ICE servers, none configured', () => {
  let bed: ServiceTestBed;
  const calls = new AnsweredCalls();

  beforeAll(async () => {
    bed = await startServiceTestBed((env) => AppModule.forRoot(env), {
      label: 'call_media_none',
      env: { CALL_SWEEP_INTERVAL_MS: '0' },
      overrides: [{ provide: ActiveCallsLookup, useValue: calls }],
    });
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it('no ICE server and no expiry', async () => {
    const { token } = await bed.signIn();
    expect(await bed.call('GET', '/api/calls/ice-servers', { token })).toMatchObject({
      status: 200,
      body: { iceServers: [], expiresAt: null },
    });
  });

  it('transcription is unavailable: status false, transcribe 503 even in a call', async () => {
    const member = await bed.signIn();
    calls.members.add(member.userId);
    expect(await bed.call('GET', '/api/whisper/status', { token: member.token })).toMatchObject({
      status: 200,
      body: { available: false },
    });
    expect(await upload(bed, member.token, webmChunk())).toMatchObject({
      status: 503,
      body: { error: CallMessages.transcriptionUnavailable },
    });
  });
});

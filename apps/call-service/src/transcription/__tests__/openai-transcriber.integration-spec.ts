import { OpenAiTranscriber } from '../openai-transcriber';
import { TranscriberError } from '../transcriber';
import { isWebm, subtitleText } from '../transcription.service';
import { OpenAiCompatibleStandIn, webmChunk } from './openai-stand-in';

/** The adapter against a local stand-in for the outside transcription backend (OpenAI-compatible API). */
describe('OpenAiTranscriber against a stand-in OpenAI-compatible server', () => {
  let standIn: OpenAiCompatibleStandIn;
  const transcriber = (options: Partial<ConstructorParameters<typeof OpenAiTranscriber>[0]> = {}) =>
    new OpenAiTranscriber({
      baseUrl: `${standIn.url}/`,
      model: 'whisper-1',
      timeoutMs: 2_000,
      healthPath: '/v1/models',
      ...options,
    });

  beforeEach(async () => {
    standIn = await new OpenAiCompatibleStandIn().start();
  });
  afterEach(async () => {
    await standIn.close();
  });

  it('posts multipart file + model (+ language) with the bearer key to /v1/audio/transcriptions and reads { text }', async () => {
    standIn.transcription = { status: 200, body: { text: ' good morning ' } };
    const audio = webmChunk(300);
    const text = await transcriber({ apiKey: 'sk-test-key', language: 'en' }).transcribe(audio, 'audio/webm');
    expect(text).toBe(' good morning ');
    const [req] = standIn.transcriptions();
    expect(req).toMatchObject({ method: 'POST', authorization: 'Bearer sk-test-key' });
    expect(req.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const body = req.body.toString('latin1');
    expect(body).toMatch(/name="model"\r\n\r\nwhisper-1\r\n/);
    expect(body).toMatch(/name="language"\r\n\r\nen\r\n/);
    expect(body).toMatch(/name="response_format"\r\n\r\njson\r\n/);
    expect(body).toMatch(/name="file"; filename="audio.webm"\r\nContent-Type: audio\/webm\r\n/);
    expect(req.body.includes(audio)).toBe(true);
  });

  it('sends no authorization without a key', async () => {
    await transcriber().transcribe(webmChunk(), 'audio/webm');
    expect(standIn.transcriptions()[0].authorization).toBeUndefined();
  });

  it('an error status, a body without text and a timeout are TranscriberErrors (no body, no audio in the message)', async () => {
    standIn.transcription = { status: 500, body: { error: { message: 'secret internals' } } };
    const failed = await transcriber()
      .transcribe(webmChunk(), 'audio/webm')
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TranscriberError);
    expect(failed).toMatchObject({ status: 500, message: 'transcription backend answered 500' });

    standIn.transcription = { status: 200, body: { nothing: true } };
    await expect(transcriber().transcribe(webmChunk(), 'audio/webm')).rejects.toThrow('answered no text');

    standIn.hang = true;
    await expect(transcriber({ timeoutMs: 200 }).transcribe(webmChunk(), 'audio/webm')).rejects.toThrow(
      'timed out',
    );
  });

  it('an unreachable backend is a TranscriberError', async () => {
    const url = standIn.url;
    await standIn.close();
    await expect(
      new OpenAiTranscriber({ baseUrl: url, model: 'm', timeoutMs: 1_000, healthPath: '/' }).transcribe(
        webmChunk(),
        'audio/webm',
      ),
    ).rejects.toThrow('unreachable');
    standIn = await new OpenAiCompatibleStandIn().start();
  });

  it('is healthy when the health path answers 2xx, not on an error status or when unreachable', async () => {
    expect(await transcriber({ apiKey: 'sk-test-key' }).healthy()).toBe(true);
    expect(standIn.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      authorization: 'Bearer sk-test-key',
    });
    standIn.healthStatus = 401;
    expect(await transcriber().healthy()).toBe(false);
    expect(await transcriber({ healthPath: '/nothing-here' }).healthy()).toBe(false);
    expect(
      await new OpenAiTranscriber({
        baseUrl: 'http://127.0.0.1:1',
        model: 'm',
        timeoutMs: 500,
        healthPath: '/',
      }).healthy(),
    ).toBe(false);
  });
});

describe('audio checks', () => {
  it('a webm chunk has the EBML magic, DocType webm and a webm type', () => {
    expect(isWebm(webmChunk(), 'audio/webm;codecs=opus')).toBe(true);
    expect(isWebm(webmChunk(), 'video/webm')).toBe(true);
    expect(isWebm(webmChunk(), 'audio/ogg')).toBe(false);
    expect(isWebm(Buffer.from('OggS\0\0\0\0\0\0\0\0\0\0\0\0'), 'audio/webm')).toBe(false);
    const matroska = webmChunk();
    matroska.write('mkvx', 24, 'latin1');
    expect(isWebm(matroska, 'audio/webm')).toBe(false);
    expect(isWebm(Buffer.from([0x1a, 0x45, 0xdf]), 'audio/webm')).toBe(false);
  });

  it('subtitle text is one trimmed line without control characters, at most 500 characters', () => {
    expect(subtitleText('  hello\u0007 there\n\n friend\u202e ')).toBe('hello there friend');
    expect(Array.from(subtitleText('😀'.repeat(600)))).toHaveLength(500);
  });
});

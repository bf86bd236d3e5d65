import type { CallRecordDto } from '@mate/contracts';
import { ApiError } from './errors';
import { createApiClient } from './client';
import { fails, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const record: CallRecordDto = {
  id: 'c1',
  callerId: 'u1',
  recipientId: 'u2',
  callerName: 'Ada',
  recipientName: 'Bea',
  status: 'completed',
  startedAt: '2026-11-23T08:00:00.000Z',
  durationSeconds: 75,
};

// WebM files start with the EBML magic bytes.
const webm = () => new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x01, 0x02])], { type: 'audio/webm;codecs=opus' });

describe('calls against a real HTTP server', () => {
  let server: Server;
  let reply: Reply;

  beforeAll(async () => {
    server = await startTestServer((req, res) => reply(req, res));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const client = (extra: Parameters<typeof createApiClient>[0] = {}) =>
    createApiClient({ baseUrl: server.baseUrl, getToken: () => 'tok-123', ...extra });

  it('reads the history with limit 50 and offset 0 by default, or the page and status asked for, with the bearer token', async () => {
    reply = ok([record]);
    await expect(client().calls.getHistory()).resolves.toEqual([record]);
    await client().calls.getHistory(20, 40);
    await client().calls.getHistory(20, 20, 'completed');
    expect(server.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()}`)).toEqual([
      'GET /api/calls/history?limit=50&offset=0',
      'GET /api/calls/history?limit=20&offset=40',
      'GET /api/calls/history?limit=20&offset=20&status=completed',
    ]);
    expect(server.requests[0].headers.authorization).toBe('Bearer tok-123');
  });

  it("reads whether another page follows from x-has-more, else from a full page (spec 000 §9)", async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-has-more': 'true' });
      res.end(JSON.stringify([record]));
    };
    await expect(client().calls.getHistoryPage(20, 0, 'missed')).resolves.toEqual({ calls: [record], hasMore: true });
    expect(`${server.requests[0].path}?${server.requests[0].query.toString()}`).toBe(
      '/api/calls/history?limit=20&offset=0&status=missed',
    );
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-has-more': 'false' });
      res.end(JSON.stringify([record, record]));
    };
    await expect(client().calls.getHistoryPage(2, 0)).resolves.toEqual({ calls: [record, record], hasMore: false });
    // Without the header: a full page may have more, a short one is the last.
    reply = ok([record, record]);
    await expect(client().calls.getHistoryPage(2, 0)).resolves.toMatchObject({ hasMore: true });
    await expect(client().calls.getHistoryPage(3, 0)).resolves.toMatchObject({ hasMore: false });
    reply = fails(502);
    await expect(client().calls.getHistoryPage()).rejects.toMatchObject({ message: 'Failed to fetch call history' });
  });

  it("answers an empty page for a body that is not a list; 'Failed to fetch call history' without an error field", async () => {
    reply = ok({ unexpected: true });
    await expect(client().calls.getHistory()).resolves.toEqual([]);
    reply = fails(502);
    await expect(client().calls.getHistory()).rejects.toMatchObject({ message: 'Failed to fetch call history', status: 502 });
    reply = fails(503, { error: 'Service temporarily unavailable' });
    await expect(client().calls.getHistory()).rejects.toThrow('Service temporarily unavailable');
  });

  it("reads the stats (missing numbers read as 0), with 'Failed to fetch call stats' as the fallback", async () => {
    const stats = { totalCalls: 3, completedCalls: 2, successRate: 2 / 3, averageDurationSeconds: 61.5 };
    reply = ok(stats);
    await expect(client().calls.getStats()).resolves.toEqual(stats);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/calls/stats' });
    reply = ok({ totalCalls: 0, successRate: null });
    await expect(client().calls.getStats()).resolves.toEqual({
      totalCalls: 0,
      completedCalls: 0,
      successRate: 0,
      averageDurationSeconds: 0,
    });
    reply = fails(500);
    await expect(client().calls.getStats()).rejects.toThrow('Failed to fetch call stats');
  });

  it("reads one call by its escaped id; 'Failed to fetch call', or the server's refusal", async () => {
    reply = ok(record);
    await expect(client().calls.getCall('c 1')).resolves.toEqual(record);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/calls/c%201' });
    reply = fails(500);
    await expect(client().calls.getCall('c1')).rejects.toThrow('Failed to fetch call');
    reply = fails(404, { error: 'Call not found' });
    await expect(client().calls.getCall('c1')).rejects.toMatchObject({ message: 'Call not found', status: 404 });
  });

  it('reads the ICE servers, with an empty list and no expiry for an odd body', async () => {
    const ice = {
      iceServers: [
        { urls: 'stun:stun.example.org:3478' },
        { urls: ['turn:turn.example.org:3478?transport=udp'], username: '1790000000:u1', credential: 'c2VjcmV0' },
      ],
      expiresAt: '2026-11-23T09:00:00.000Z',
    };
    reply = ok(ice);
    await expect(client().calls.getIceServers()).resolves.toEqual(ice);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/calls/ice-servers' });
    reply = ok({ iceServers: 'none' });
    await expect(client().calls.getIceServers()).resolves.toEqual({ iceServers: [], expiresAt: null });
    reply = fails(500);
    await expect(client().calls.getIceServers()).rejects.toThrow('Failed to fetch ICE servers');
  });

  it('reads the transcription status; any failure reads as not available, and a 401 still ends the session', async () => {
    reply = ok({ available: true });
    await expect(client().calls.whisperStatus()).resolves.toEqual({ available: true });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/whisper/status' });
    reply = ok({ available: 'yes' });
    await expect(client().calls.whisperStatus()).resolves.toEqual({ available: false });
    reply = fails(503, { error: 'Transcription is not available' });
    await expect(client().calls.whisperStatus()).resolves.toEqual({ available: false });

    const onUnauthorized = jest.fn();
    reply = fails(401, { error: 'Your session has expired' });
    await expect(client({ onUnauthorized }).calls.whisperStatus()).resolves.toEqual({ available: false });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    const closed = createApiClient({ baseUrl: 'http://127.0.0.1:9', getToken: () => 't' });
    await expect(closed.calls.whisperStatus()).resolves.toEqual({ available: false });
  });

  it('uploads a chunk as multipart field audio (webm) and answers its text', async () => {
    reply = ok({ text: 'hello there' });
    await expect(client().calls.transcribe(webm())).resolves.toEqual({ text: 'hello there' });
    const [req] = server.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/api/whisper/transcribe' });
    expect(req.headers.authorization).toBe('Bearer tok-123');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const raw = req.rawBody.toString('latin1');
    expect(raw).toContain('Content-Disposition: form-data; name="audio"; filename="chunk.webm"');
    expect(raw).toContain('Content-Type: audio/webm;codecs=opus');
    expect(req.rawBody.includes(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))).toBe(true);

    // A blob without a type goes as webm; a body without text reads as silence.
    reply = ok({});
    await expect(client().calls.transcribe(new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])]))).resolves.toEqual({
      text: '',
    });
    expect(server.requests[1].rawBody.toString('latin1')).toContain('Content-Type: audio/webm');
  });

  it("refuses a chunk over 1 MB without a request; upload failures: the server's error, else 'Failed to transcribe audio'", async () => {
    const tooLarge = new Blob([new Uint8Array(1024 * 1024 + 1)], { type: 'audio/webm' });
    const error = await client().calls.transcribe(tooLarge).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Audio must be at most 1 MB', status: 413 });
    expect(server.requests).toHaveLength(0);

    reply = fails(429, { error: 'Too many transcription requests. Please slow down.' });
    await expect(client().calls.transcribe(webm())).rejects.toMatchObject({
      message: 'Too many transcription requests. Please slow down.',
      status: 429,
    });
    reply = fails(500);
    await expect(client().calls.transcribe(webm())).rejects.toThrow('Failed to transcribe audio');
  });

  it('stops an upload when its signal aborts', async () => {
    reply = () => undefined; // never answers
    const controller = new AbortController();
    const pending = client().calls.transcribe(webm(), { signal: controller.signal });
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

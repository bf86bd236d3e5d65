import { EdgeMessages, ErrorCode } from '@mate/contracts';
import type { SessionStore } from '@mate/server-kit';
import { call, issueSession, waitFor } from '@mate/server-kit/testing';
import { rawExchange, requestHead, startEdgeGateway, type EdgeGateway, type RawExchange, type RecordingUpstream } from './edge-test-kit';

/**
 * Issue 7, item 1: requests that send `Content-Length: 100` and 9 bytes, then nothing, used to
 * take the gateway's connections to a service one by one until a normal login waited behind them
 * (28.8 s with the 256 connections of production), and then got 503 for their own slowness.
 *
 * The numbers are production's scaled down so the attack is quick to run: 16 connections per
 * service instead of 256, 8 requests in flight per address instead of 32, a 2 s body deadline
 * instead of 10 s, a 3 s pause allowed in an upload instead of 15 s. The attack sends 40 stalled
 * bodies from 5 addresses: more than the service's connections, and as many per address as the
 * cap allows.
 */
const JWT_SECRET = 'gateway-slow-clients-secret-0123456789';
const BODY_TIMEOUT_MS = 2000;
const UPLOAD_IDLE_TIMEOUT_MS = 3000;
const PER_CLIENT = 8;
const UPSTREAM_SOCKETS = 16;
const QUEUE_TIMEOUT_MS = 300;

// Each case waits out one or two deadlines.
jest.setTimeout(30_000);

const ATTACKERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];
/** The 9 bytes of a login body that never gets its other 91. */
const FIRST_BYTES = '{"email":';

describe('gateway: slow clients', () => {
  let edge: EdgeGateway;
  let auth: RecordingUpstream;
  let profile: RecordingUpstream;
  let url: string;
  let sessions: SessionStore;

  beforeAll(async () => {
    edge = await startEdgeGateway('gateway-slow', JWT_SECRET, {
      UPSTREAM_TIMEOUT_MS: '10000',
      BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      UPLOAD_IDLE_TIMEOUT_MS: String(UPLOAD_IDLE_TIMEOUT_MS),
      MAX_CONCURRENT_PER_CLIENT: String(PER_CLIENT),
      UPSTREAM_MAX_SOCKETS: String(UPSTREAM_SOCKETS),
      UPSTREAM_QUEUE_TIMEOUT_MS: String(QUEUE_TIMEOUT_MS),
    });
    ({ auth, profile, url, sessions } = edge);
  });

  afterAll(async () => {
    await edge?.close();
  });

  const stalledLogin = (from: string): RawExchange =>
    rawExchange(url, {
      from,
      head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': 100, 'X-Case': 'stalled' }),
      body: FIRST_BYTES,
    });

  it('serves a login at once while 40 stalled bodies from 5 addresses wait; each address is capped (429) and each stalled body gets 408, never 503', async () => {
    const started = Date.now();
    // One more than the cap from every address: whichever arrives last is refused at once.
    const attack = ATTACKERS.map((from) => Array.from({ length: PER_CLIENT + 1 }, () => stalledLogin(from)));
    const all = attack.flat();

    for (const fromOneAddress of attack) {
      const first = await Promise.race(fromOneAddress.map((x) => x.answer));
      expect(first.status).toBe(429);
      expect(first.headers['retry-after']).toBe('1');
      expect(first.headers.connection).toBe('close');
      expect(first.body).toMatchObject({ error: EdgeMessages.tooManyInFlight, code: ErrorCode.RateLimited });
    }
    const stalled = all.filter((x) => !x.answered());
    expect(stalled).toHaveLength(ATTACKERS.length * PER_CLIENT);
    expect(stalled.length).toBeGreaterThan(UPSTREAM_SOCKETS);

    // A member's login, while every stalled body is still waiting.
    const loginStarted = Date.now();
    const login = await call<{ path: string; body: string }>(url, 'POST', '/api/auth/login', {
      body: { email: 'member@mate.test', password: 'correct horse' },
    });
    const loginMs = Date.now() - loginStarted;
    // 200, not 503: it got a service connection within the 300 ms queue deadline (no stalled body
    // holds one), with no timing threshold that a busy machine could break.
    expect(login.status).toBe(200);
    expect(login.body.path).toBe('/api/auth/login');
    expect(JSON.parse(login.body.body)).toEqual({ email: 'member@mate.test', password: 'correct horse' });
    expect(stalled.filter((x) => x.answered())).toEqual([]);

    const answers = await Promise.all(stalled.map((x) => x.answer));
    for (const answer of answers) {
      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toMatchObject({ error: EdgeMessages.requestTimeout, code: ErrorCode.RequestTimeout });
      // The deadline counts from each request's arrival, after the attack started.
      expect(answer.at - started).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
    }
    // The gateway closes each connection instead of waiting for the rest of the body.
    await Promise.all(stalled.map((x) => x.closed));
    // No stalled request ever took a connection to the service.
    expect(auth.seen.filter((r) => r.headers['x-case'] === 'stalled')).toEqual([]);
    // Their slots are free again: an attacking address is served like anyone once it behaves.
    const after = rawExchange(url, {
      from: ATTACKERS[0],
      head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': 2, Connection: 'close' }),
      body: '{}',
    });
    expect((await after.answer).status).toBe(200);
    process.stdout.write(`slow clients: login served in ${loginMs} ms while ${stalled.length} bodies stalled\n`);
  });

  it('answers a chunked body that stops coming with 408 at the deadline', async () => {
    const started = Date.now();
    const exchange = rawExchange(url, {
      from: '127.0.0.7',
      head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'X-Case': 'chunked-stall' }),
      body: `9\r\n${FIRST_BYTES}\r\n`,
    });
    const answer = await exchange.answer;
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ code: ErrorCode.RequestTimeout });
    expect(answer.at - started).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
    expect(auth.seen.filter((r) => r.headers['x-case'] === 'chunked-stall')).toEqual([]);
  });

  it('streams an upload to its service and cuts the exchange with 408 when the body stops coming for UPLOAD_IDLE_TIMEOUT_MS', async () => {
    const member = await issueSession(sessions, JWT_SECRET);
    const started = Date.now();
    const exchange = rawExchange(url, {
      from: '127.0.0.8',
      head: requestHead(url, 'POST', '/api/profile/me/photos', {
        Authorization: member.authorization,
        'Content-Type': 'application/octet-stream',
        'Content-Length': 1000,
        'X-Case': 'upload-stall',
      }),
      body: 'p'.repeat(10),
    });
    // Uploads are not held at the edge: the service has the request while the body is still coming.
    const upload = await waitFor(async () => profile.seen.find((r) => r.headers['x-case'] === 'upload-stall'), { what: 'the upload at the service' });
    expect(exchange.answered()).toBe(false);

    const answer = await exchange.answer;
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toMatchObject({ error: EdgeMessages.requestTimeout, code: ErrorCode.RequestTimeout });
    expect(answer.at - started).toBeGreaterThanOrEqual(UPLOAD_IDLE_TIMEOUT_MS - 50);
    await exchange.closed;
    // The service's side of the exchange is cut too, so it stops waiting for the rest.
    await waitFor(async () => upload.aborted, { what: 'the upload cut at the service' });
    expect(upload.body).toBeNull();
  });

  it('answers 503 to a request that waits longer than UPSTREAM_QUEUE_TIMEOUT_MS for a connection to a busy service, and drops it from the queue', async () => {
    const member = await issueSession(sessions, JWT_SECRET);
    // Every connection to auth-service busy with a slow answer (from two addresses: the cap is 8 each).
    const busy = Array.from({ length: UPSTREAM_SOCKETS }, (_, i) =>
      rawExchange(url, {
        from: i % 2 ? '127.0.0.9' : '127.0.0.10',
        head: requestHead(url, 'GET', '/api/auth/me', { Authorization: member.authorization, 'X-Hold': 1, Connection: 'close' }),
      }),
    );
    await waitFor(async () => auth.held() === UPSTREAM_SOCKETS, { what: 'all connections to the service busy' });

    const queuedAt = Date.now();
    const queued = await call(url, 'GET', '/api/auth/me', { token: member.token, headers: { 'x-case': 'queued' } });
    expect(queued.status).toBe(503);
    expect(queued.body).toMatchObject({ error: EdgeMessages.unavailable, code: ErrorCode.ServiceUnavailable });
    expect(Date.now() - queuedAt).toBeGreaterThanOrEqual(QUEUE_TIMEOUT_MS - 50);

    auth.releaseHeld();
    for (const answer of await Promise.all(busy.map((x) => x.answer))) expect(answer.status).toBe(200);
    // The abandoned request left the queue: the next request is served, and the service never saw it.
    const next = await call(url, 'GET', '/api/auth/me', { token: member.token, headers: { 'x-case': 'after-queue' } });
    expect(next.status).toBe(200);
    expect(auth.seen.filter((r) => r.headers['x-case'] === 'queued')).toEqual([]);
  });

  it("closes a connection whose headers never finish (Node's own deadline, BODY_TIMEOUT_MS)", async () => {
    const exchange = rawExchange(url, { from: '127.0.0.11', head: `GET /api/auth/me HTTP/1.1\r\nHost: ${new URL(url).host}\r\nX-Slow: ` });
    await exchange.closed;
    // Node answers 408 (its clientError handler may add a JSON body) and closes the connection.
    await expect(exchange.answer).resolves.toMatchObject({ status: 408 });
  });
});

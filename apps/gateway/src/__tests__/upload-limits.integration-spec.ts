import { EdgeMessages, ErrorCode } from '@mate/contracts';
import { call, issueSession, waitFor } from '@mate/server-kit/testing';
import { rawExchange, requestHead, startEdgeGateway, trickle, type EdgeGateway, type RawExchange } from './edge-test-kit';

/**
 * Issue 7, item 1, second review: uploads stream to their service, so they need limits of their own.
 *
 * - A service that answers an upload before reading it (403 for an unverified account, 429 over
 *   the upload rate, 503 queue full) used to leave the client's body trickling into the service
 *   connection until Node's 70 s request deadline, with the client's slot already given back: one
 *   account held every connection to profile-service.
 * - Slow but accepted uploads shared the service's one pool with every other call.
 * - One 60 s deadline for any upload gave a 10 MB photo on a slow line a 408.
 *
 * - Review round 3: any byte reset the idle timer and the deadline came from the declared length,
 *   so one byte every 14 s kept a 10 MB upload (and the service's admission ticket) alive ~11 min.
 *   An upload must now keep up a minimum average rate once its grace period is over.
 *
 * Production's numbers scaled down: 2 connections per pool instead of 256 and 64, uploads allowed
 * 1.5 s of grace and then at least 1000 bytes/s (deadline 1.5 s plus 1 s per 1000 bytes) instead
 * of 20 s and 8 KiB/s, and 800 ms without a byte instead of 15 s.
 */
const JWT_SECRET = 'gateway-upload-limits-secret-0123456789';
const SOCKETS = 2;
const QUEUE_TIMEOUT_MS = 1000;
const BASE_MS = 1500;
const BYTES_PER_SECOND = 1000;
const IDLE_MS = 800;
const BODY_LIMIT = 4096;

jest.setTimeout(30_000);

describe('gateway: upload limits', () => {
  let edge: EdgeGateway;
  let url: string;
  let authorization: string;

  beforeAll(async () => {
    edge = await startEdgeGateway('gateway-uploads', JWT_SECRET, {
      UPSTREAM_MAX_SOCKETS: String(SOCKETS),
      UPSTREAM_MAX_UPLOAD_SOCKETS: String(SOCKETS),
      UPSTREAM_QUEUE_TIMEOUT_MS: String(QUEUE_TIMEOUT_MS),
      UPLOAD_BODY_BASE_MS: String(BASE_MS),
      UPLOAD_MIN_BYTES_PER_SECOND: String(BYTES_PER_SECOND),
      UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS),
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      MAX_CONCURRENT_PER_CLIENT: '8',
    });
    url = edge.url;
    authorization = (await issueSession(edge.sessions, JWT_SECRET)).authorization;
  });

  afterAll(async () => {
    await edge?.close();
  });

  /** An upload of `length` declared bytes whose first `first` bytes are sent at once. */
  const upload = (from: string, length: number, first: string, headers: Record<string, string> = {}): RawExchange =>
    rawExchange(url, {
      from,
      head: requestHead(url, 'POST', '/api/profile/me/photos', {
        Authorization: authorization,
        'Content-Type': 'application/octet-stream',
        'Content-Length': length,
        ...headers,
      }),
      body: first,
    });

  /**
   * An ordinary call and an upload, each answered 200: a request still waiting for a service
   * connection at the queue deadline would get 503 instead.
   */
  const expectServedAtOnce = async (what: string) => {
    const ordinary = await call(url, 'GET', '/api/profile/me', { headers: { authorization, 'x-case': `${what}-ordinary` } });
    const photo = await call(url, 'POST', '/api/profile/me/photos', {
      raw: 'photo-bytes',
      headers: { authorization, 'content-type': 'application/octet-stream', 'x-case': `${what}-upload` },
    });
    expect({ what, ordinary: ordinary.status, upload: photo.status }).toEqual({ what, ordinary: 200, upload: 200 });
  };

  it('closes an upload answered before its body came (403 from the service), so a trickled body holds no service connection', async () => {
    // As many attacks as the upload pool has connections, each declaring 11 000 bytes and trickling.
    const attacks = Array.from({ length: SOCKETS }, () => upload('127.0.0.30', 11_000, 'x'.repeat(10), { 'X-Answer-Early': '403' }));
    const trickles = attacks.map((x) => trickle(x, 'x'.repeat(10_990), 10, 100));
    const answers = await Promise.all(attacks.map((x) => x.answer));
    for (const answer of answers) expect(answer.status).toBe(403);
    // Before the fix the trickles kept both upload connections to profile-service busy: the next
    // upload waited for the queue deadline and got 503 (and with one pool, so did every call).
    await expectServedAtOnce('after-early-answers');
    // The answer said the connection ends, and it did (the attacker's slots were held until then);
    // the trickles stop.
    for (const answer of answers) expect(answer.headers.connection).toBe('close');
    await Promise.all(attacks.map((x) => x.closed));
    await Promise.all(trickles);
  });

  it('does not forward an upload whose client left during the Redis calls (review round 3, item 1)', async () => {
    // Forwarded anyway, it held an upload connection to the service until the idle deadline: the
    // forwarder's answer 'close' had already fired.
    // Many at once, so that some FINs are in while the edge waits on Redis (from addresses of their own).
    const gone = Array.from({ length: 60 }, (_, i) => {
      const x = upload(`127.0.1.${i + 1}`, 11_000, '', { 'X-Case': `gone-upload-${i}` });
      x.socket.end();
      return x.closed;
    });
    await Promise.all(gone);
    // The edge's Redis calls are answered in order on one connection, so this upload is decided
    // after the gone ones. Forwarded, they would hold both upload connections (a request whose body
    // never comes sends nothing, not even its head) until the idle deadline, and this one would
    // wait for a connection about that long.
    const started = Date.now();
    const after = await call(url, 'POST', '/api/profile/me/photos', { raw: 'after', headers: { authorization, 'content-type': 'application/octet-stream', 'x-case': 'after-gone' } });
    expect(after.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(IDLE_MS);
  });

  it('treats only a POST as an upload: a PUT to an upload path gets the ordinary body limit (413)', async () => {
    const put = rawExchange(url, {
      from: '127.0.0.31',
      head: requestHead(url, 'PUT', '/api/profile/me/photos', {
        Authorization: authorization,
        'Content-Type': 'application/octet-stream',
        'Content-Length': BODY_LIMIT + 1,
      }),
    });
    const answer = await put.answer;
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: EdgeMessages.tooLarge, code: ErrorCode.PayloadTooLarge });
    const post = upload('127.0.0.31', BODY_LIMIT + 1, 'p'.repeat(BODY_LIMIT + 1), { Connection: 'close' });
    expect((await post.answer).status).toBe(200);
  });

  it('keeps uploads on connections of their own: with every upload connection busy, ordinary calls are still served', async () => {
    const slow = Array.from({ length: SOCKETS }, (_, i) => upload('127.0.0.32', 11_000, 'y'.repeat(10), { 'X-Case': `slow-upload-${i}` }));
    // Above the minimum rate (1500 bytes/s), so only the test's end cuts them.
    const trickles = slow.map((x) => trickle(x, 'y'.repeat(4000), 150, 100));
    try {
      // Both uploads are at the service, each holding an upload connection while its body comes.
      await waitFor(async () => edge.profile.seen.filter((r) => String(r.headers['x-case']).startsWith('slow-upload-')).length === SOCKETS, {
        what: 'both slow uploads at the service',
      });
      // 200, not the 503 of a request still waiting for a connection at the queue deadline.
      const ordinary = await call(url, 'GET', '/api/profile/me', { headers: { authorization } });
      expect(ordinary.status).toBe(200);
      // A third upload waits for an upload connection, and gets the queue's 503 in the end.
      const third = await call(url, 'POST', '/api/profile/me/photos', { raw: 'z', headers: { authorization, 'content-type': 'application/octet-stream' } });
      expect(third.status).toBe(503);
      expect(third.body).toMatchObject({ error: EdgeMessages.unavailable, code: ErrorCode.ServiceUnavailable });
    } finally {
      // The test hangs up on them: they end without an answer.
      for (const x of slow) {
        x.answer.catch(() => undefined);
        x.socket.destroy();
      }
      await Promise.all(trickles);
    }
  });

  it('gives an upload a deadline scaled to its length: a steady upload slower than the base deadline arrives whole', async () => {
    // 3000 bytes at ~1250 bytes/s: about 2.4 s, over the 1.5 s base, under 1.5 s + 3 s.
    const body = 'q'.repeat(3000);
    const started = Date.now();
    const exchange = upload('127.0.0.33', body.length, '', { Connection: 'close' });
    await trickle(exchange, body, 250, 200);
    const answer = await exchange.answer;
    expect(answer.status).toBe(200);
    expect((answer.body as { body: string }).body).toBe(body);
    expect(answer.at - started).toBeGreaterThan(BASE_MS);
  });

  it('answers 408 to a trickled upload once it falls under the minimum rate after its grace, long before its scaled deadline (review round 3, item 2)', async () => {
    // The attack: a byte every 200 ms (5 bytes/s) never pauses long enough for the idle deadline,
    // and the scaled deadline is 1.5 s + 2 s. Under 1000 bytes/s past the 1.5 s grace: cut at the
    // first check after it (checks run every second).
    const started = Date.now();
    const exchange = upload('127.0.0.34', 2000, '');
    const trickled = trickle(exchange, 'r'.repeat(2000), 1, 200);
    const answer = await exchange.answer;
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ error: EdgeMessages.requestTimeout, code: ErrorCode.RequestTimeout });
    expect(answer.headers.connection).toBe('close');
    expect(answer.at - started).toBeGreaterThanOrEqual(BASE_MS);
    expect(answer.at - started).toBeLessThan(BASE_MS + 2000 - 200);
    await exchange.closed;
    await trickled;
    // The service's side of the exchange was cut too: it never got the whole body.
    const atService = edge.profile.seen.find((r) => r.headers['x-case'] === undefined && r.headers['content-length'] === '2000' && r.body === null);
    expect(atService).toBeDefined();
    await waitFor(async () => atService?.aborted, { what: 'the service side of the trickled upload cut' });
  });

  it('lets a steady upload above the minimum rate through, past its grace', async () => {
    // 4500 bytes at ~1500 bytes/s: about 3 s, twice the grace, well above 1000 bytes/s on average
    // even when a busy machine delays the sender's timers.
    const body = 't'.repeat(4500);
    const started = Date.now();
    const exchange = upload('127.0.0.36', body.length, '', { Connection: 'close' });
    await trickle(exchange, body, 150, 100);
    const answer = await exchange.answer;
    expect(answer.status).toBe(200);
    expect((answer.body as { body: string }).body).toBe(body);
    expect(answer.at - started).toBeGreaterThan(2 * BASE_MS - 200);
  });

  it('answers 408 to an upload that stops sending for UPLOAD_IDLE_TIMEOUT_MS, long before its scaled deadline', async () => {
    const started = Date.now();
    const exchange = upload('127.0.0.35', 100_000, 's'.repeat(10));
    const answer = await exchange.answer;
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(answer.at - started).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(answer.at - started).toBeLessThan(BASE_MS);
    await exchange.closed;
  });
});

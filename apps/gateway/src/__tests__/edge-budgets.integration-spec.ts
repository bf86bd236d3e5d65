import { AuthMessages, EdgeMessages, ErrorCode } from '@mate/contracts';
import { call, issueSession, waitFor } from '@mate/server-kit/testing';
import { EDGE_SETTING, type Edge } from '../proxy/edge';
import { rawExchange, requestHead, startEdgeGateway, type EdgeGateway, type RawExchange } from './edge-test-kit';

/**
 * Issue 7, item 1, second review: what one client may spend at the edge.
 *
 * - IPv6: a client is given a whole /64 and picks addresses in it at will, so the per-address
 *   rate limit and cap on requests in flight count the /64 (`rateLimitAddress`); before, each of
 *   its 2^64 addresses had a budget of its own.
 * - Memory: ordinary bodies are read whole at the edge; the default limit is the services' own
 *   100 KB, and all the bodies being read on a replica share EDGE_MAX_BUFFERED_BYTES (503 past it).
 *
 * Clients are told apart by X-Forwarded-For, which this gateway believes from loopback (as it
 * would from its ingress).
 */
const JWT_SECRET = 'gateway-edge-budgets-secret-0123456789';
const RATE_PER_MINUTE = 5;
const PER_CLIENT = 2;
const DEFAULT_BODY_LIMIT = 100 * 1024;
const BUFFERED = 150_000;
// Long enough that the hog below still holds its claim on a busy machine when it is probed.
const BODY_TIMEOUT_MS = 3000;

jest.setTimeout(30_000);

describe('gateway: per-client budgets', () => {
  let edge: EdgeGateway;
  let url: string;
  let authorization: string;

  beforeAll(async () => {
    edge = await startEdgeGateway('gateway-budgets', JWT_SECRET, {
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_PER_MINUTE: String(RATE_PER_MINUTE),
      MAX_CONCURRENT_PER_CLIENT: String(PER_CLIENT),
      EDGE_MAX_BUFFERED_BYTES: String(BUFFERED),
      BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    });
    url = edge.url;
    authorization = (await issueSession(edge.sessions, JWT_SECRET)).authorization;
  });

  afterAll(async () => {
    await edge?.close();
  });

  const me = (client: string, headers: Record<string, string> = {}) =>
    call(url, 'GET', '/api/auth/me', { headers: { authorization, 'x-forwarded-for': client, ...headers } });

  describe('an IPv6 client is its /64 (item 4 of the review)', () => {
    it('shares one rate budget between the addresses of one /64; another /64 has its own', async () => {
      for (let i = 1; i <= RATE_PER_MINUTE; i++) expect((await me(`2001:db8:1:2::${i.toString(16)}`)).status).toBe(200);
      const sameSlash64 = await me('2001:db8:1:2:ffff:ffff:ffff:fffe');
      expect(sameSlash64.status).toBe(429);
      expect(sameSlash64.body).toMatchObject({ error: AuthMessages.tooManyAttempts, code: ErrorCode.RateLimited });
      expect((await me('2001:db8:1:3::1')).status).toBe(200);
    });

    it('shares the cap on requests in flight between the addresses of one /64', async () => {
      const held = ['2001:db8:2:2::a', '2001:db8:2:2::b'].map((client) =>
        rawExchange(url, {
          head: requestHead(url, 'GET', '/api/auth/me', { Authorization: authorization, 'X-Forwarded-For': client, 'X-Hold': 1, Connection: 'close' }),
        }),
      );
      await waitFor(async () => edge.auth.held() === PER_CLIENT, { what: 'two answers held' });
      const third = await me('2001:db8:2:2:1234:5678:9abc:def0');
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: EdgeMessages.tooManyInFlight, code: ErrorCode.RateLimited });
      expect(third.headers.get('retry-after')).toBe('1');
      expect((await me('2001:db8:2:3::a')).status).toBe(200);
      edge.auth.releaseHeld();
      for (const x of held) expect((await x.answer).status).toBe(200);
    });

    it('counts an IPv4-mapped IPv6 address as the IPv4 address it carries', async () => {
      for (let i = 0; i < RATE_PER_MINUTE; i++) expect((await me(i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7')).status).toBe(200);
      expect((await me('::ffff:c633:6407')).status).toBe(429);
    });
  });

  describe('memory for bodies read at the edge (item 5 of the review)', () => {
    /** What the edge holds of bodies being read right now (its test seam). */
    const bufferedBytes = () => (edge.gateway.app.getHttpAdapter().getInstance() as { get(name: string): Edge }).get(EDGE_SETTING).bufferedBytes();
    /** A body declared `length` bytes long of which only the first 10 arrive. */
    const stalled = (client: string, length: number): RawExchange =>
      rawExchange(url, {
        head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': length, 'X-Forwarded-For': client }),
        body: '{"email":"',
      });

    it('limits an ordinary body to the services’ 100 KB by default', async () => {
      const over = await rawExchange(url, {
        head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': DEFAULT_BODY_LIMIT + 1, 'X-Forwarded-For': '198.51.100.20' }),
      }).answer;
      expect(over.status).toBe(413);
      expect(over.body).toMatchObject({ error: EdgeMessages.tooLarge, code: ErrorCode.PayloadTooLarge });
      const body = JSON.stringify({ email: 'a@mate.test', padding: 'p'.repeat(DEFAULT_BODY_LIMIT - 100) });
      const whole = await call<{ body: string }>(url, 'POST', '/api/auth/login', { raw: body, headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.21' } });
      expect(whole.status).toBe(200);
      expect(whole.body.body).toBe(body);
    });

    it('answers 503 with Retry-After to a body that does not fit in EDGE_MAX_BUFFERED_BYTES, and reads it once bytes are free', async () => {
      // 100 KB of the replica's 150 000 bytes claimed by a body that never comes.
      const hog = stalled('198.51.100.30', DEFAULT_BODY_LIMIT);
      const big = JSON.stringify({ padding: 'b'.repeat(60_000) });
      const send = () => call(url, 'POST', '/api/auth/login', { raw: big, headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.32' } });
      // Refused once the hog's request has arrived and claimed its declared length (awaited on the
      // edge's own count: probing with requests would spend the address's rate budget).
      await waitFor(async () => bufferedBytes() >= DEFAULT_BODY_LIMIT, { what: "the hog's claim" });
      const refused = await send();
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ error: EdgeMessages.unavailable, code: ErrorCode.ServiceUnavailable });
      expect(refused.headers.get('retry-after')).toBe('1');
      // A body that still fits is read as usual.
      const small = JSON.stringify({ email: 'small@mate.test' });
      expect((await call(url, 'POST', '/api/auth/login', { raw: small, headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.31' } })).status).toBe(200);
      // A chunked body is counted as it comes, and refused once it no longer fits.
      const chunked = await rawExchange(url, {
        head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'X-Forwarded-For': '198.51.100.33' }),
        body: `${(30_000).toString(16)}\r\n${'c'.repeat(30_000)}\r\n${(30_000).toString(16)}\r\n${'c'.repeat(30_000)}\r\n0\r\n\r\n`,
      }).answer;
      expect(chunked.status).toBe(503);
      expect(chunked.headers['retry-after']).toBe('1');
      // The hog's body times out (408) and its bytes are free again.
      expect((await hog.answer).status).toBe(408);
      expect((await send()).status).toBe(200);
    });

    it('gives the budget back for clients that leave during the Redis calls (review round 3, item 1)', async () => {
      // The attack: a declared 100 KB body and a FIN right after the headers, so the client is gone
      // while the edge waits on Redis. Its claim used to be taken after its exchange's 'close' had
      // fired, and never given back: a few such requests and every JSON POST got 503 until restart.
      const leave = (i: number, path: string, headers: Record<string, string> = {}) => {
        const x = rawExchange(url, {
          head: requestHead(url, 'POST', path, { 'Content-Type': 'application/json', 'Content-Length': DEFAULT_BODY_LIMIT, 'X-Forwarded-For': `203.0.113.${i}`, ...headers }),
        });
        x.socket.end();
        return x.closed;
      };
      // Public routes (one Redis call) and ones behind a session (two, side by side).
      await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => leave(i + 1, '/api/auth/login')),
        ...Array.from({ length: 30 }, (_, i) => leave(i + 101, '/api/auth/me', { Authorization: authorization })),
      ]);
      await waitFor(async () => bufferedBytes() === 0, { what: 'the buffer budget back to 0' });
      const big = JSON.stringify({ padding: 'b'.repeat(60_000) });
      const after = await call<{ body: string }>(url, 'POST', '/api/auth/login', { raw: big, headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.250' } });
      expect(after.status).toBe(200);
      expect(after.body.body).toBe(big);
      expect(bufferedBytes()).toBe(0);
    });
  });
});

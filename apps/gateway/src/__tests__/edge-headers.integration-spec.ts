import { randomUUID } from 'node:crypto';
import { ErrorCode, INTERNAL_TOKEN_HEADER, ROLE_ADMIN, ROLE_MEMBER } from '@mate/contracts';
import type { SessionStore } from '@mate/server-kit';
import { call, issueSession, waitFor } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { rawExchange, requestHead, startEdgeGateway, type EdgeGateway, type RecordingUpstream } from './edge-test-kit';

/**
 * Issue 7: what the gateway adds to what it answers (item 9: no caching and no type sniffing of
 * API answers) and to what it forwards (item 3: the internal credential, never the client's).
 */
const JWT_SECRET = 'gateway-edge-headers-secret-0123456789';
const INTERNAL_TOKEN = 'gateway-edge-headers-internal-token-0123456789';
const BODY_LIMIT = 2048;
const PER_CLIENT = 2;

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: string;
}

describe('gateway: headers of API answers and of forwarded requests', () => {
  let edge: EdgeGateway;
  let auth: RecordingUpstream;
  let profile: RecordingUpstream;
  let url: string;
  let sessions: SessionStore;

  beforeAll(async () => {
    const closedPort = await freePort();
    edge = await startEdgeGateway('gateway-headers', JWT_SECRET, (upstreams) => ({
      INTERNAL_TOKEN,
      ADMIN_SERVICE_URL: upstreams.auth,
      MATCHING_SERVICE_URL: `http://127.0.0.1:${closedPort}`,
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      MAX_CONCURRENT_PER_CLIENT: String(PER_CLIENT),
    }));
    ({ auth, profile, url, sessions } = edge);
  });

  afterAll(async () => {
    await edge?.close();
  });

  const member = () => issueSession(sessions, JWT_SECRET, undefined, ROLE_MEMBER);

  const expectApiHeaders = (headers: Headers | Record<string, string>) => {
    const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
    expect(get('cache-control')).toBe('no-store');
    expect(get('x-content-type-options')).toBe('nosniff');
  };

  describe('Cache-Control: no-store and X-Content-Type-Options: nosniff (item 9)', () => {
    it('on a proxied answer carrying account data', async () => {
      const s = await member();
      const res = await call(url, 'GET', '/api/auth/me', { token: s.token });
      expect(res.status).toBe(200);
      expectApiHeaders(res.headers);
    });

    it('on a proxied answer under /admin', async () => {
      const s = await issueSession(sessions, JWT_SECRET, undefined, ROLE_ADMIN);
      const res = await call(url, 'GET', '/admin/reports', { token: s.token });
      expect(res.status).toBe(200);
      expectApiHeaders(res.headers);
    });

    it("keeps a service's own Cache-Control (photo files) and still adds nosniff", async () => {
      const res = await call(url, 'GET', `/api/photos/files/${randomUUID()}/large.webp`, {
        headers: { 'x-echo-cache-control': 'public, max-age=300' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it.each([
      ['401 without a session', 'GET', '/api/auth/me', 401],
      ['404 for an unknown API path', 'GET', '/api/nope', 404],
      ['401 on an admin path without a session', 'GET', '/admin/reports', 401],
    ])("on the gateway's own refusal: %s", async (_what, method, path, status) => {
      const res = await call(url, method, path);
      expect(res.status).toBe(status);
      expectApiHeaders(res.headers);
    });

    it("on the gateway's own refusals: 403, 413, 503, 429", async () => {
      const s = await member();
      const forbidden = await call(url, 'GET', '/api/admin/stats', { token: s.token });
      expect(forbidden.status).toBe(403);
      expectApiHeaders(forbidden.headers);

      const tooLarge = await rawExchange(url, {
        head: requestHead(url, 'POST', '/api/auth/login', { 'Content-Type': 'application/json', 'Content-Length': BODY_LIMIT + 1 }),
      }).answer;
      expect(tooLarge.status).toBe(413);
      expectApiHeaders(tooLarge.headers);

      const down = await call(url, 'GET', '/api/matches/discover', { token: s.token });
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ code: ErrorCode.ServiceUnavailable });
      expectApiHeaders(down.headers);

      // Two requests in flight from one address (the cap here), so a third is refused.
      const held = Array.from({ length: PER_CLIENT }, () =>
        rawExchange(url, { from: '127.0.0.20', head: requestHead(url, 'GET', '/api/auth/me', { Authorization: s.authorization, 'X-Hold': 1, Connection: 'close' }) }),
      );
      await waitFor(async () => auth.held() === PER_CLIENT, { what: 'two answers held' });
      const refused = await rawExchange(url, { from: '127.0.0.20', head: requestHead(url, 'GET', '/api/auth/me', { Authorization: s.authorization }) }).answer;
      expect(refused.status).toBe(429);
      expectApiHeaders(refused.headers);
      auth.releaseHeld();
      for (const x of held) expect((await x.answer).status).toBe(200);
    });

    it('on the API docs page the gateway serves under /api', async () => {
      const res = await call(url, 'GET', '/api/docs/');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expectApiHeaders(res.headers);
    });
  });

  describe('the internal credential (item 3)', () => {
    const forged = { [INTERNAL_TOKEN_HEADER]: 'forged-by-a-client-0123456789' };

    it('replaces a client-sent x-mate-internal with the gateway’s own on a call without a body', async () => {
      const s = await member();
      const res = await call<Seen>(url, 'GET', '/api/auth/me', { token: s.token, headers: forged });
      expect(res.status).toBe(200);
      expect(res.body.headers[INTERNAL_TOKEN_HEADER]).toBe(INTERNAL_TOKEN);
    });

    it('adds it to a public call with a body read at the edge, the client’s value dropped', async () => {
      const res = await call<Seen>(url, 'POST', '/api/auth/login', { body: { email: 'a@mate.test', password: 'pw' }, headers: forged });
      expect(res.status).toBe(200);
      expect(res.body.headers[INTERNAL_TOKEN_HEADER]).toBe(INTERNAL_TOKEN);
      expect(JSON.parse(res.body.body)).toEqual({ email: 'a@mate.test', password: 'pw' });
    });

    it('adds it to a streamed upload, the client’s value dropped', async () => {
      const s = await member();
      const res = await call<Seen>(url, 'POST', '/api/profile/me/photos', {
        token: s.token,
        raw: 'photo-bytes',
        headers: { ...forged, 'content-type': 'application/octet-stream' },
      });
      expect(res.status).toBe(200);
      expect(res.body.headers[INTERNAL_TOKEN_HEADER]).toBe(INTERNAL_TOKEN);
    });

    it('never lets a client-sent value through, even one naming itself in Connection', async () => {
      const s = await member();
      const answer = await rawExchange(url, {
        head: requestHead(url, 'GET', '/api/auth/me', {
          Authorization: s.authorization,
          Connection: `close, ${INTERNAL_TOKEN_HEADER}`,
          [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN.replace(/.$/, 'x'),
        }),
      }).answer;
      expect(answer.status).toBe(200);
      const seen = answer.body as unknown as Seen;
      expect(seen.headers[INTERNAL_TOKEN_HEADER]).toBe(INTERNAL_TOKEN);
      // Every request the services got through the edge carried the gateway's value, and only that.
      const proxied = [...auth.seen, ...profile.seen].filter((r) => /^\/(api|admin)\//.test(r.path));
      expect(proxied.length).toBeGreaterThan(5);
      expect(proxied.map((r) => r.headers[INTERNAL_TOKEN_HEADER])).toEqual(proxied.map(() => INTERNAL_TOKEN));
    });
  });
});

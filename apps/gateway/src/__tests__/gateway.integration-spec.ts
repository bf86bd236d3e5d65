import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JwtService } from '@nestjs/jwt';
import { AuthMessages, ErrorCode, REQUEST_ID_HEADER, ROLE_ADMIN, ROLE_MEMBER } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import { call, issueSession, startService, type RunningService } from '@mate/server-kit/testing';
import { createTestRedisNamespace, freePort } from '@mate/testing';
import { AppModule } from '../app.module';
import type { GatewayEnv } from '../gateway.env';
import { gatewayHttp } from '../gateway.http';

const JWT_SECRET = 'gateway-integration-secret-0123456789';
const BODY_LIMIT = 2048;
const UPLOAD_LIMIT = 8192;

/** What the echo upstream saw: the request exactly as the gateway forwarded it. */
interface Echo {
  service: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A stand-in for a real service (auth-, profile-, admin-service): a plain node:http server that
 * answers every request with what it received, so the tests can see exactly what the gateway
 * forwards. The services' own behaviour is tested in their own suites.
 */
interface EchoUpstream {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

async function startEchoUpstream(service: string, keepAliveTimeoutMs?: number): Promise<EchoUpstream> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const echo: Echo = {
        service,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      // Test knobs: answer late, with another status, with hop-by-hop headers, with a big body, or die half-way.
      const delay = Number(req.headers['x-echo-delay-ms'] ?? 0);
      const timer = setTimeout(() => {
        if (res.destroyed) return;
        if (req.headers['x-echo-cut']) {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
          res.write('only part of the body');
          setTimeout(() => res.destroy(), 20);
          return;
        }
        const bytes = Number(req.headers['x-echo-bytes'] ?? 0);
        res.writeHead(Number(req.headers['x-echo-status'] ?? 200), {
          'content-type': 'application/json',
          'x-upstream': service,
          'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
          ...(req.headers['x-echo-hop'] ? { 'keep-alive': 'timeout=5, max=1000', 'x-hop-answer': '1', connection: 'keep-alive, x-hop-answer' } : {}),
        });
        res.end(bytes ? JSON.stringify({ ...echo, body: 'z'.repeat(bytes) }) : JSON.stringify(echo));
      }, delay);
      res.on('close', () => clearTimeout(timer));
    });
  });
  if (keepAliveTimeoutMs) server.keepAliveTimeout = keepAliveTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL nothing listens on: a service that is down. */
async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/**
 * A request with full control over the headers (Origin, a Content-Length without the body, a
 * chunked body), which fetch does not give. Resolves on the response, without waiting for the
 * whole declared body to be sent.
 */
function raw(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body, chunks }: { headers?: Record<string, string>; body?: string; chunks?: string[] } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let parsed: Record<string, unknown> | null = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = { text };
        }
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    // The gateway may answer (413) and close before the declared body is written: not an error here.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    if (chunks) {
      for (const c of chunks) req.write(c);
      req.end();
    } else if (body !== undefined) {
      req.end(body);
    } else if (!('content-length' in headers)) {
      req.end();
    } else {
      req.flushHeaders();
    }
  });
}

describe('gateway', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let gateway: RunningService;
  let url: string;
  let sessions: SessionStore;
  const upstreams: EchoUpstream[] = [];
  let shortKeepAlive: EchoUpstream;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('gateway');
    const [auth, profile, admin] = await Promise.all(['auth-service', 'profile-service', 'admin-service'].map(startEchoUpstream));
    // Announces `Keep-Alive: timeout=2` and closes idle connections after 2.5 s.
    shortKeepAlive = await startEchoUpstream('safety-service', 2500);
    upstreams.push(auth, profile, admin, shortKeepAlive);
    const env = {
      REDIS_URL: ns.url,
      KEY_PREFIX: ns.prefix,
      JWT_SECRET,
      LOG_LEVEL: 'silent',
      AUTH_SERVICE_URL: auth.url,
      PROFILE_SERVICE_URL: profile.url,
      ADMIN_SERVICE_URL: admin.url,
      SAFETY_SERVICE_URL: shortKeepAlive.url,
      MATCHING_SERVICE_URL: await closedPortUrl(),
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT),
      RATE_LIMIT_PER_MINUTE: '100000',
      UPSTREAM_TIMEOUT_MS: '1000',
    };
    gateway = await startService((e) => AppModule.forRoot(e), env, (e) => gatewayHttp(e as GatewayEnv), { migrate: false });
    url = gateway.url;
    sessions = gateway.app.get(SessionStore);
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all(upstreams.map((u) => u.close()));
    await ns?.cleanup();
  });

  const member = () => issueSession(sessions, JWT_SECRET, undefined, ROLE_MEMBER);
  const admin = () => issueSession(sessions, JWT_SECRET, undefined, ROLE_ADMIN);

  it('answers GET /health itself', async () => {
    const res = await call(url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', checks: { redis: 'up' } });
  });

  describe('authentication', () => {
    it('proxies a public call (POST /api/auth/login) without a token, body and path intact', async () => {
      const res = await call<Echo>(url, 'POST', '/api/auth/login', { body: { email: 'a@mate.test', password: 'secret pass' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ service: 'auth-service', method: 'POST', path: '/api/auth/login' });
      expect(JSON.parse(res.body.body)).toEqual({ email: 'a@mate.test', password: 'secret pass' });
      expect(res.body.headers.authorization).toBeUndefined();
    });

    it('refuses GET /api/auth/me without a token with a JSON 401', async () => {
      const res = await call(url, 'GET', '/api/auth/me');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'Authentication required', code: ErrorCode.Unauthorized });
      expect(res.body.requestId).toBe(res.headers.get(REQUEST_ID_HEADER));
    });

    it.each([
      ['a malformed token', 'not-a-jwt'],
      ['a token signed with another secret', new JwtService({ secret: 'some-other-secret-0123456789' }).sign({ sub: 'u', sid: 's', role: ROLE_ADMIN })],
      ['an expired token', new JwtService({ secret: JWT_SECRET }).sign({ sub: 'u', sid: 's', role: ROLE_MEMBER, exp: Math.floor(Date.now() / 1000) - 60 })],
      ['a token with another algorithm', new JwtService({ secret: JWT_SECRET }).sign({ sub: 'u', sid: 's' }, { algorithm: 'HS512' })],
    ])('refuses %s with 401', async (_what, token) => {
      const res = await call(url, 'GET', '/api/auth/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: AuthMessages.authRequired });
    });

    it('refuses a well-signed token whose claims lack a session with 401, not 503', async () => {
      const token = new JwtService({ secret: JWT_SECRET }).sign({ sub: 'someone' }, { algorithm: 'HS256' });
      const res = await call(url, 'GET', '/api/auth/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: AuthMessages.authRequired });
    });

    it('refuses a well-signed token whose session belongs to another user', async () => {
      const s = await member();
      const token = new JwtService({ secret: JWT_SECRET }).sign({ sub: 'someone-else', sid: s.sessionId }, { algorithm: 'HS256' });
      const res = await call(url, 'GET', '/api/auth/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: AuthMessages.sessionExpired, code: ErrorCode.SessionExpired });
    });

    it('proxies a live session: path and query intact, Authorization passed on, request id and client address set', async () => {
      const s = await member();
      const res = await call<Echo>(url, 'GET', '/api/auth/me?fields=name%2Cage&x=1', { token: s.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ service: 'auth-service', method: 'GET', path: '/api/auth/me?fields=name%2Cage&x=1' });
      expect(res.body.headers.authorization).toBe(s.authorization);
      const requestId = res.headers.get(REQUEST_ID_HEADER);
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.headers[REQUEST_ID_HEADER]).toBe(requestId);
      expect(res.body.headers['x-forwarded-for']).toMatch(/(^|[\s,])(::ffff:)?127\.0\.0\.1$/);
      expect(res.body.headers['x-forwarded-proto']).toBe('http');
    });

    it("keeps the caller's request id, end to end", async () => {
      const s = await member();
      const res = await call<Echo>(url, 'GET', '/api/auth/me', { token: s.token, headers: { [REQUEST_ID_HEADER]: 'trace-abc.123' } });
      expect(res.headers.get(REQUEST_ID_HEADER)).toBe('trace-abc.123');
      expect(res.body.headers[REQUEST_ID_HEADER]).toBe('trace-abc.123');
    });

    it('refuses a revoked session on the very next request', async () => {
      const s = await member();
      expect((await call(url, 'GET', '/api/auth/me', { token: s.token })).status).toBe(200);
      await sessions.revoke(s.sessionId, s.userId);
      const res = await call(url, 'GET', '/api/auth/me', { token: s.token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: AuthMessages.sessionExpired, code: ErrorCode.SessionExpired });
    });

    it('routes each prefix to its owning service', async () => {
      const s = await member();
      expect((await call<Echo>(url, 'GET', '/api/profile/me', { token: s.token })).body.service).toBe('profile-service');
      expect((await call<Echo>(url, 'GET', '/api/sessions', { token: s.token })).body.service).toBe('auth-service');
    });
  });

  describe('admin routes', () => {
    it.each(['/admin/reports', '/api/admin/stats'])('refuses a member on GET %s with 403', async (path) => {
      const s = await member();
      const res = await call(url, 'GET', path, { token: s.token });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'Admin access required', code: ErrorCode.Forbidden });
    });

    it.each(['/admin/reports', '/api/admin/stats'])('refuses GET %s without a token with 401', async (path) => {
      const res = await call(url, 'GET', path);
      expect(res.status).toBe(401);
    });

    it.each(['/admin/reports', '/api/admin/stats'])('proxies an admin on GET %s to admin-service', async (path) => {
      const s = await admin();
      const res = await call<Echo>(url, 'GET', path, { token: s.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ service: 'admin-service', path });
    });

    it('applies a role change to a live session at once', async () => {
      const s = await member();
      expect((await call(url, 'GET', '/api/admin/stats', { token: s.token })).status).toBe(403);
      await sessions.setRole(s.userId, ROLE_ADMIN);
      expect((await call(url, 'GET', '/api/admin/stats', { token: s.token })).status).toBe(200);
    });

    it.each(['/admin/queues', '/admin/queues/', '/admin/queues/?ticket=abc', '/admin/queues/api/queues'])(
      'forwards the queue dashboard (browser navigation, admin-service checks its own cookie) without a token: GET %s',
      async (path) => {
        const res = await call<Echo>(url, 'GET', path);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ service: 'admin-service', path });
      },
    );

    it('keeps the admin check on everything else of the prefix: the dashboard session call and anything climbing out', async () => {
      expect((await call(url, 'POST', '/admin/queues/session')).status).toBe(401);
      expect((await call(url, 'POST', '/api/admin/queues/session')).status).toBe(401);
      expect((await call(url, 'GET', '/api/admin/queues')).status).toBe(401);
      expect((await call(url, 'GET', '/admin/queues/%2e%2e/reports')).status).toBe(401);
      expect((await call(url, 'GET', '/admin/queuesx')).status).toBe(401);
      const s = await member();
      expect((await call(url, 'POST', '/admin/queues/session', { token: s.token })).status).toBe(403);
    });
  });

  describe('edge answers', () => {
    it('answers an unknown API path with a JSON 404, token or not', async () => {
      const s = await member();
      for (const token of [undefined, s.token]) {
        const res = await call(url, 'GET', '/api/nope', { token });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(res.body).toMatchObject({ error: 'Not found', code: ErrorCode.NotFound });
      }
    });

    it('refuses a declared Content-Length over BODY_LIMIT_BYTES with a JSON 413', async () => {
      const res = await raw(url, 'POST', '/api/auth/login', {
        headers: { 'content-type': 'application/json', 'content-length': String(BODY_LIMIT + 1) },
      });
      expect(res.status).toBe(413);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toMatchObject({ error: 'Request body is too large', code: ErrorCode.PayloadTooLarge });
    });

    it('proxies a body of exactly BODY_LIMIT_BYTES', async () => {
      const body = 'x'.repeat(BODY_LIMIT);
      const res = await raw(url, 'POST', '/api/auth/login', { headers: { 'content-type': 'text/plain', 'content-length': String(body.length) }, body });
      expect(res.status).toBe(200);
      expect((res.body as unknown as Echo).body).toHaveLength(BODY_LIMIT);
    });

    it('refuses a chunked body (no Content-Length) that grows over BODY_LIMIT_BYTES', async () => {
      const chunk = 'y'.repeat(1024);
      const res = await raw(url, 'POST', '/api/auth/login', {
        headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        chunks: [chunk, chunk, chunk],
      });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ error: 'Request body is too large', code: ErrorCode.PayloadTooLarge });
    });

    it('proxies a chunked body under BODY_LIMIT_BYTES whole', async () => {
      const res = await raw(url, 'POST', '/api/auth/login', {
        headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        chunks: ['a'.repeat(700), 'b'.repeat(700)],
      });
      expect(res.status).toBe(200);
      expect((res.body as unknown as Echo).body).toBe('a'.repeat(700) + 'b'.repeat(700));
    });

    it('lets an upload route take bodies up to UPLOAD_LIMIT_BYTES, and no more', async () => {
      const s = await member();
      const body = 'p'.repeat(UPLOAD_LIMIT);
      const ok = await raw(url, 'POST', '/api/profile/me/photos', {
        headers: { authorization: s.authorization, 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
        body,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ service: 'profile-service', path: '/api/profile/me/photos' });
      expect((ok.body as unknown as Echo).body).toHaveLength(UPLOAD_LIMIT);

      const tooBig = await raw(url, 'POST', '/api/profile/me/photos', {
        headers: { authorization: s.authorization, 'content-type': 'application/octet-stream', 'content-length': String(UPLOAD_LIMIT + 1) },
      });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body).toMatchObject({ error: 'Request body is too large' });
    });

    it('answers 503 JSON when the owning service is down', async () => {
      const s = await member();
      const res = await call(url, 'GET', '/api/matches/discover', { token: s.token });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'Service temporarily unavailable', code: ErrorCode.ServiceUnavailable });
      expect(res.body.requestId).toBe(res.headers.get(REQUEST_ID_HEADER));
    });
  });

  describe('proxying', () => {
    it('drops hop-by-hop request headers and keeps the others', async () => {
      const s = await member();
      const res = await raw(url, 'GET', '/api/auth/me', {
        headers: {
          authorization: s.authorization,
          connection: 'keep-alive, x-hop-secret',
          'x-hop-secret': 'do not forward',
          'keep-alive': 'timeout=5',
          'proxy-authorization': 'Basic c2VjcmV0',
          te: 'trailers',
          'x-custom': 'kept',
          'x-forwarded-for': '203.0.113.9',
        },
      });
      expect(res.status).toBe(200);
      const seen = (res.body as unknown as Echo).headers;
      for (const name of ['x-hop-secret', 'keep-alive', 'proxy-authorization', 'te']) expect(seen[name]).toBeUndefined();
      expect(seen['x-custom']).toBe('kept');
      // A client cannot choose the address services rate-limit by: its own header is replaced.
      expect(seen['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(seen.host).toBe(new URL(url).host);
    });

    it("passes the service's status, headers and cookies back, without its hop-by-hop headers", async () => {
      const s = await member();
      const res = await raw(url, 'GET', '/api/auth/me', { headers: { authorization: s.authorization, 'x-echo-status': '418', 'x-echo-hop': '1' } });
      expect(res.status).toBe(418);
      expect(res.headers['x-upstream']).toBe('auth-service');
      expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(res.headers['keep-alive']).toBeUndefined();
      expect(res.headers['x-hop-answer']).toBeUndefined();
      expect(res.headers[REQUEST_ID_HEADER]).toBe((res.body as unknown as Echo).headers[REQUEST_ID_HEADER]);
    });

    it('streams a large answer whole', async () => {
      const s = await member();
      const res = await call<Echo>(url, 'GET', '/api/auth/me', { token: s.token, headers: { 'x-echo-bytes': String(3 * 1024 * 1024) } });
      expect(res.status).toBe(200);
      expect(res.body.body).toHaveLength(3 * 1024 * 1024);
    });

    it('answers 503 JSON when the service does not answer within UPSTREAM_TIMEOUT_MS', async () => {
      const s = await member();
      const started = Date.now();
      const res = await call(url, 'GET', '/api/auth/me', { token: s.token, headers: { 'x-echo-delay-ms': '3000' } });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'Service temporarily unavailable' });
      expect(Date.now() - started).toBeLessThan(2500);
    });

    it('cuts the answer off when the service dies half-way, and keeps serving', async () => {
      const s = await member();
      await expect(call(url, 'GET', '/api/auth/me', { token: s.token, headers: { 'x-echo-cut': '1' } })).rejects.toThrow();
      expect((await call(url, 'GET', '/api/auth/me', { token: s.token })).status).toBe(200);
    });

    it("closes idle connections to a service before the service does (no reuse race)", async () => {
      const s = await member();
      expect((await call(url, 'GET', '/api/safety/reports', { token: s.token })).status).toBe(200);
      const open = () => new Promise<number>((resolve, reject) => shortKeepAlive.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
      expect(await open()).toBe(1);
      // The service would close its side at 2.5 s; the gateway closes first, at 2 s - 1 s.
      await new Promise((r) => setTimeout(r, 1600));
      expect(await open()).toBe(0);
      expect((await call(url, 'GET', '/api/safety/reports', { token: s.token })).status).toBe(200);
    });

    it('accepts the Bearer scheme in any case, as RFC 6750 allows', async () => {
      const s = await member();
      const res = await call(url, 'GET', '/api/auth/me', { headers: { authorization: `bearer ${s.token}` } });
      expect(res.status).toBe(200);
    });

    it('answers by precedence: 413 before 404 and 401', async () => {
      const res = await raw(url, 'POST', '/api/nope', { headers: { 'content-length': String(BODY_LIMIT + 1) } });
      expect(res.status).toBe(413);
      const unknown = await raw(url, 'POST', '/api/nope', { headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(unknown.status).toBe(404);
    });
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      raw(url, 'OPTIONS', '/api/auth/me', {
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,content-type' },
      });

    it('allows a preflight from the web app with the Authorization header', async () => {
      const res = await preflight('http://localhost:4200');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:4200');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
      expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
    });

    it('does not allow a preflight from another origin', async () => {
      const res = await preflight('http://evil.test');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('exposes the request id to the web app on a real response', async () => {
      const res = await raw(url, 'GET', '/api/auth/me', { headers: { origin: 'http://localhost:4200' } });
      expect(res.status).toBe(401);
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:4200');
      expect(String(res.headers['access-control-expose-headers']).toLowerCase()).toContain(REQUEST_ID_HEADER);
    });
  });

  describe('rate limit', () => {
    let limited: RunningService;
    let limitedNs: Awaited<ReturnType<typeof createTestRedisNamespace>>;

    beforeAll(async () => {
      // A second gateway with a tiny limit and its own key prefix, so its counters start at zero.
      limitedNs = await createTestRedisNamespace('gateway-rl');
      limited = await startService(
        (e) => AppModule.forRoot(e),
        {
          REDIS_URL: limitedNs.url,
          KEY_PREFIX: limitedNs.prefix,
          JWT_SECRET,
          LOG_LEVEL: 'silent',
          AUTH_SERVICE_URL: upstreams[0].url,
          RATE_LIMIT_PER_MINUTE: '5',
        },
        (e) => gatewayHttp(e as GatewayEnv),
        { migrate: false },
      );
    });

    afterAll(async () => {
      await limited?.close();
      await limitedNs?.cleanup();
    });

    it('answers the 6th request in a minute with 429 and Retry-After, and still serves /health', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await call(limited.url, 'POST', '/api/auth/login', { body: { email: `r${i}@mate.test`, password: 'x' } });
        expect(res.status).toBe(200);
      }
      const sixth = await call(limited.url, 'POST', '/api/auth/login', { body: { email: 'r6@mate.test', password: 'x' } });
      expect(sixth.status).toBe(429);
      expect(sixth.body).toMatchObject({ error: AuthMessages.tooManyAttempts, code: ErrorCode.RateLimited });
      const retryAfter = Number(sixth.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await call(limited.url, 'GET', '/api/auth/me')).status).toBe(429);
      expect((await call(limited.url, 'GET', '/api/nope')).status).toBe(429);
      // A made-up X-Forwarded-For does not buy a fresh allowance.
      const spoofed = await call(limited.url, 'GET', '/api/auth/me', { headers: { 'x-forwarded-for': '198.51.100.77' } });
      expect(spoofed.status).toBe(429);
      expect((await call(limited.url, 'GET', '/health')).status).toBe(200);
    });
  });
});

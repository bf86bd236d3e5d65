import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { SERVICE_REGISTRY } from '@mate/contracts';
import { MetricName, publicOperations, SessionStore } from '@mate/server-kit';
import { call, issueSession, startService, startServiceProcess, type RunningService, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, type TestDatabase } from '@mate/testing';
import { AppModule } from '../../app.module';
import type { GatewayEnv } from '../../gateway.env';
import { gatewayHttp } from '../../gateway.http';
import { PUBLIC_ROUTES } from '../../proxy/routes';
import { DOCS_JSON_PATH, DOCS_PATH } from '../api-docs';

const JWT_SECRET = 'gateway-docs-secret-0123456789';
const AUTH_MAIN = 'apps/auth-service/src/main.ts';
const PROFILE_MAIN = 'apps/profile-service/src/main.ts';
const PHOTO_FILES = 'GET /api/photos/files/{photoId}/{file}';

/**
 * The gateway in this process in front of the real auth- and profile-service, each started from
 * source in its own process (the gateway may not import other apps). Their databases exist but
 * stay empty: these tests read documents and metrics, no tables.
 */
describe('gateway /api/docs and /metrics', () => {
  jest.setTimeout(60_000);

  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let dbs: TestDatabase[] = [];
  let photoDir: string;
  let services: ServiceProcess[] = [];
  let gateway: RunningService;

  beforeAll(async () => {
    [ns, ...dbs] = await Promise.all([createTestRedisNamespace('docs'), createTestDatabase('docs_auth'), createTestDatabase('docs_profile')]);
    photoDir = await mkdtemp(path.join(tmpdir(), 'mate-docs-photos-'));
    const common = { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, JWT_SECRET, LOG_LEVEL: 'warn', WORKERS: 'off', OUTBOX_RELAY: 'off' };
    const [authPort, profilePort, closedPort] = await Promise.all([freePort(), freePort(), freePort()]);
    services = await Promise.all([
      startServiceProcess(AUTH_MAIN, authPort, { ...common, DATABASE_URL: dbs[0].url }),
      startServiceProcess(PROFILE_MAIN, profilePort, { ...common, DATABASE_URL: dbs[1].url, PHOTO_DIR: photoDir }),
    ]);
    gateway = await startService(
      (e) => AppModule.forRoot(e),
      {
        ...common,
        LOG_LEVEL: 'silent',
        // Every other service is down (not left on its registry port, where another run on this
        // machine may have one listening): its document is missing, the others are served anyway.
        ...Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.urlVariable, `http://127.0.0.1:${closedPort}`])),
        AUTH_SERVICE_URL: services[0].url,
        PROFILE_SERVICE_URL: services[1].url,
      },
      (e) => gatewayHttp(e as GatewayEnv),
      { migrate: false },
    );
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all(dbs.map((db) => db.drop()));
    await ns?.cleanup();
    if (photoDir) await rm(photoDir, { recursive: true, force: true });
  });

  describe('/api/docs', () => {
    let document: OpenAPIObject;

    beforeAll(async () => {
      const res = await call<OpenAPIObject>(gateway.url, 'GET', DOCS_JSON_PATH);
      expect(res.status).toBe(200);
      document = res.body;
    });

    it('combines the services documents under the paths the gateway exposes', () => {
      expect(document.info.title).toBe('Mate API');
      expect(document.paths['/api/auth/register']?.post?.responses['201']).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/AuthResponseDto' } } },
      });
      expect(document.paths['/api/profile/me']?.get?.responses['200']).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/OwnProfileResponseDto' } } },
      });
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(['/api/auth/login', '/api/sessions/my', '/api/photos/upload', '/api/preferences/me']),
      );
      expect(Object.keys(document.paths).every((p) => p.startsWith('/api/'))).toBe(true);
      // Every $ref points at a schema the document has.
      const refs = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
      expect(refs.filter((name) => !document.components?.schemas?.[name])).toEqual([]);
    });

    it('marks exactly the public routes without security, every other one with the bearer token', () => {
      expect(publicOperations(document).sort()).toEqual([...PUBLIC_ROUTES, PHOTO_FILES].sort());
      expect(document.components?.securitySchemes?.['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(document.paths['/api/auth/me']?.get?.security).toEqual([{ bearer: [] }]);
      expect(document.paths['/api/auth/me']?.get?.responses['401']).toBeDefined();
    });

    it('documents the error body and what the gateway itself answers', () => {
      expect(document.components?.schemas?.['ErrorBodyDto']).toMatchObject({
        required: ['error'],
        properties: { error: { type: 'string' }, code: {}, requestId: {} },
      });
      const login = document.paths['/api/auth/login']?.post;
      expect(Object.keys(login?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '413', '429', '503']));
      expect(document.info.description).toContain('notification-service');
    });

    it('serves the docs page through the gateway, with the combined document in it', async () => {
      const page = await fetch(`${gateway.url}${DOCS_PATH}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      expect(html).toContain('swagger-ui');
      const init = await fetch(`${gateway.url}${DOCS_PATH}/swagger-ui-init.js`);
      expect(init.status).toBe(200);
      expect(await init.text()).toContain('/api/auth/register');
      const bundle = await fetch(`${gateway.url}${DOCS_PATH}/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
      await bundle.arrayBuffer();
    });

    it('still answers unknown /api paths next to it with the JSON 404', async () => {
      const res = await call(gateway.url, 'GET', '/api/docs-not-here');
      expect(res).toMatchObject({ status: 404, body: { error: 'Not found' } });
    });
  });

  describe('/metrics', () => {
    it('labels proxied requests by the prefix that routed them, never by the raw path', async () => {
      const id = '0b5e54a1-5d6c-4f3b-9a57-8f2a1c3e9d10';
      // Refused by the edge (no token): still counted under its prefix.
      expect((await call(gateway.url, 'GET', `/api/profile/${id}`)).status).toBe(401);
      expect((await call(gateway.url, 'GET', '/health')).status).toBe(200);
      const res = await fetch(`${gateway.url}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(`${MetricName.httpRequestDuration}_count{service="gateway",method="GET",route="/api/profile/*",status="401"}`);
      expect(text).toContain(`${MetricName.httpRequestDuration}_count{service="gateway",method="GET",route="/health",status="200"}`);
      expect(text).not.toContain(id);
    });

    it('serves the services metrics on their own port, and none of them through /api', async () => {
      const own = await fetch(`${services[1].url}/metrics`);
      expect(own.status).toBe(200);
      expect(await own.text()).toContain('process_cpu_user_seconds_total');
      // Signed in, so the edge forwards whatever a service owns: the services never see /metrics or /openapi.json.
      const { token } = await issueSession(gateway.app.get(SessionStore), JWT_SECRET);
      const answers: Record<string, number> = {};
      for (const p of ['/api/metrics', '/api/openapi.json', '/api/profile/metrics', '/api/auth/openapi.json', '/api/photos/metrics']) {
        const res = await fetch(`${gateway.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
        const body = await res.text();
        expect(body).not.toContain('process_cpu_user_seconds_total');
        expect(body).not.toContain('"openapi"');
        answers[p] = res.status;
      }
      expect(answers).toEqual({
        '/api/metrics': 404,
        '/api/openapi.json': 404,
        '/api/profile/metrics': 404,
        '/api/auth/openapi.json': 404,
        '/api/photos/metrics': 404,
      });
    });
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DEFAULT_PORTS, REQUEST_ID_HEADER, SERVICES } from '@mate/contracts';
import { BaseServiceEnv } from '../../config/config';
import { runWithRequestId } from '../../logging/logger';
import { internalTrustMiddleware } from '../../bootstrap/internal-trust';
import { NulTextMessages } from '../../bootstrap/nul-text';
import { AppException } from '../../errors/app.exception';
import { ServiceCallError, ServiceClient } from '../service-client';

const INTERNAL_TOKEN = 'service-client-test-credential-0123456789';

/**
 * The client against a real HTTP server (loopback): the kit's own trust middleware in front of an
 * `/internal` route, as every service has it, plus routes that fail in each way a callee can.
 */
describe('ServiceClient (a real HTTP server on loopback)', () => {
  let server: http.Server;
  let url: string;
  let hanging: http.ServerResponse[] = [];
  const seen: { headers: http.IncomingHttpHeaders; query: Record<string, unknown> }[] = [];
  const posted: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.use(internalTrustMiddleware(INTERNAL_TOKEN, { edge: false }));
    app.get('/internal/echo', (req, res) => {
      seen.push({ headers: { ...req.headers }, query: { ...req.query } });
      res.json({ ok: true, query: req.query });
    });
    app.post('/internal/echo', (req, res) => {
      req.resume();
      posted.push(req.path);
      res.json({ ok: true });
    });
    app.get('/refuses', (_req, res) => {
      res.status(404).json({ error: 'Conversation not found', code: 'NOT_FOUND' });
    });
    app.get('/fails', (_req, res) => {
      res.status(503).json({ error: 'Service temporarily unavailable' });
    });
    app.get('/not-json', (_req, res) => {
      res.type('text/plain').send('hello');
    });
    app.get('/hangs', (_req, res) => {
      hanging.push(res);
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    hanging = [];
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const clientWith = (values: Partial<Record<string, string>>) => {
    const env = Object.assign(new BaseServiceEnv(), { INTERNAL_TOKEN }, values);
    return new ServiceClient(env);
  };
  const client = () => clientWith({ CHAT_SERVICE_URL: `${url}/` });

  async function failureOf(call: Promise<unknown>): Promise<ServiceCallError> {
    try {
      await call;
    } catch (e) {
      if (e instanceof ServiceCallError) return e;
      throw e;
    }
    throw new Error('the call succeeded');
  }

  it('calls the configured URL with the internal credential and the request id; the kit middleware lets it into /internal', async () => {
    const answer = await runWithRequestId('req-service-client-1', () =>
      client().get<{ ok: boolean; query: Record<string, string> }>(SERVICES.chat, '/internal/echo', {
        query: { before: new Date('2026-11-23T06:00:00.000Z'), limit: 20, skipped: undefined, none: null },
      }),
    );
    expect(answer).toEqual({ ok: true, query: { before: '2026-11-23T06:00:00.000Z', limit: '20' } });
    const last = seen[seen.length - 1];
    expect(last.headers[REQUEST_ID_HEADER]).toBe('req-service-client-1');
    // The middleware took the credential off the request once it had checked it.
    expect(last.headers).not.toHaveProperty('x-mate-internal');
  });

  it('is refused on /internal with a wrong credential (403 as a typed error, not retryable)', async () => {
    const e = await failureOf(
      clientWith({ CHAT_SERVICE_URL: url, INTERNAL_TOKEN: 'a-different-credential-0123456789' }).get(SERVICES.chat, '/internal/echo'),
    );
    expect(e).toMatchObject({ service: 'chat-service', path: '/internal/echo', failure: 'status', status: 403, retryable: false });
  });

  it("turns a non-2xx answer into a typed error carrying the other side's refusal text", async () => {
    const refused = await failureOf(client().get(SERVICES.chat, '/refuses'));
    expect(refused).toMatchObject({ failure: 'status', status: 404, retryable: false });
    expect(refused.message).toBe('chat-service /refuses: answered 404: Conversation not found');
    const failing = await failureOf(client().get(SERVICES.chat, '/fails'));
    expect(failing).toMatchObject({ failure: 'status', status: 503, retryable: true });
  });

  it('gives up after the timeout with a timeout error', async () => {
    const started = Date.now();
    const e = await failureOf(client().get(SERVICES.chat, '/hangs', { timeoutMs: 150 }));
    expect(e).toMatchObject({ failure: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('says unreachable when nothing listens, and invalid-body for an answer that is not JSON', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await failureOf(clientWith({ CHAT_SERVICE_URL: `http://127.0.0.1:${port}` }).get(SERVICES.chat, '/internal/echo'));
    expect(down).toMatchObject({ failure: 'unreachable', retryable: true });
    expect(down.message).toContain('ECONNREFUSED');

    const garbled = await failureOf(client().get(SERVICES.chat, '/not-json'));
    expect(garbled).toMatchObject({ failure: 'invalid-body', status: 200 });
  });

  it("defaults to the registry's local port, and knows only registry services", async () => {
    expect(clientWith({}).baseUrl(SERVICES.chat)).toBe(`http://127.0.0.1:${DEFAULT_PORTS[SERVICES.chat]}`);
    expect(() => clientWith({}).baseUrl(SERVICES.gateway)).toThrow('gateway is not a service of the registry');
    await expect(client().get(SERVICES.chat, 'internal/echo')).rejects.toThrow("a service path starts with '/'");
  });

  it('sends nothing for a path the URL parser would change (dot segments, query, fragment): a segment cannot climb out of its route', async () => {
    const before = seen.length;
    // Each would reach /internal/echo (or cut the path short) with the credential if sent.
    for (const path of [
      '/internal/x/../echo',
      '/internal/x/%2E%2e/echo',
      '/internal/x/.%2e/echo',
      '/internal/./echo',
      '/internal/echo/..',
      '/internal/echo?limit=1000',
      '/internal/echo#/messages',
      '/internal\\echo',
      '/internal/echo /x',
      '/internal/echo\r\nx-evil: 1',
    ]) {
      await expect(client().get(SERVICES.chat, path)).rejects.toThrow('a service path has no dot segments');
    }
    expect(seen.length).toBe(before);
    // Dots inside a segment are an ordinary name.
    await expect(failureOf(client().get(SERVICES.chat, '/refuses/..x/a.b'))).resolves.toMatchObject({ failure: 'status', status: 404 });
  });

  it('sends nothing that carries a NUL (issue 24 item 3): path, query or body, refused as a 400 of the request that led to it', async () => {
    posted.length = 0;
    const before = seen.length;
    const refusal = async (call: Promise<unknown>) => {
      const e = await call.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(AppException);
      return { status: (e as AppException).getStatus(), error: ((e as AppException).getResponse() as { error: string }).error };
    };
    await expect(refusal(client().get(SERVICES.chat, '/internal/echo/%00'))).resolves.toEqual({ status: 400, error: NulTextMessages.path });
    await expect(refusal(client().get(SERVICES.chat, '/internal/echo', { query: { q: 'ann\u0000' } }))).resolves.toEqual({
      status: 400,
      error: NulTextMessages.queryParameter('q'),
    });
    await expect(refusal(client().post(SERVICES.chat, '/internal/echo', { reason: { text: ['ok', 'spam\u0000'] } }))).resolves.toEqual({
      status: 400,
      error: NulTextMessages.bodyField('reason.text[1]'),
    });
    await expect(refusal(client().post(SERVICES.chat, '/internal/echo', { ['k\u0000']: 1 }))).resolves.toEqual({
      status: 400,
      error: NulTextMessages.bodyFieldName,
    });
    expect(seen.length).toBe(before);
    expect(posted).toHaveLength(0);
    // The same calls without one are sent.
    await expect(client().get(SERVICES.chat, '/internal/echo', { query: { q: 'ann' } })).resolves.toMatchObject({ ok: true });
    await expect(client().post(SERVICES.chat, '/internal/echo', { reason: { text: ['ok'] } })).resolves.toEqual({ ok: true });
    expect(posted).toHaveLength(1);
  });
});

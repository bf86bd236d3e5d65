import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { ErrorCode, INTERNAL_TOKEN_HEADER, SERVICES, SocketMessages, type AuthPrincipal } from '@mate/contracts';
import { SOCKET_EVENTS_PATH, type SocketEventBatchItem } from '@mate/server-kit';
import { EventRouter } from '../event-router';

const INTERNAL_TOKEN = 'event-router-test-credential-0123456789';

/** A service's batch route in miniature: records each request and answers when the test says. */
class FakeService {
  readonly requests: { path: string; internal: string | undefined; items: SocketEventBatchItem[] }[] = [];
  /** How each request is answered; by default every item 200 with its own payload echoed. */
  answer: (items: SocketEventBatchItem[], res: http.ServerResponse) => void = (items, res) =>
    json(res, 200, { results: items.map((item) => ({ status: 200, body: { echo: JSON.parse(item.payload ?? '{}'), token: item.token } })) });
  private held: (() => void)[] = [];
  private holding = false;
  private readonly server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const items = (JSON.parse(text) as { items: SocketEventBatchItem[] }).items;
      this.requests.push({ path: req.url ?? '', internal: req.headers[INTERNAL_TOKEN_HEADER] as string | undefined, items });
      const go = () => this.answer(items, res);
      if (this.holding) this.held.push(go);
      else go();
    });
  });
  url = '';

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  /** Requests wait for release() from now on. */
  hold() {
    this.holding = true;
  }
  release() {
    this.holding = false;
    for (const go of this.held.splice(0)) go();
  }
  async waitForRequests(n: number) {
    for (let i = 0; i < 500 && this.requests.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(this.requests.length).toBeGreaterThanOrEqual(n);
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const sender = (n: number) => ({
  principal: { userId: `user-${n}`, sessionId: `session-${n}`, role: 'member', verified: true } as AuthPrincipal,
  token: `token-${n}`,
});

describe('EventRouter: micro-batched delivery of client events', () => {
  let service: FakeService;
  let router: EventRouter;
  const routerFor = (options: Partial<ConstructorParameters<typeof EventRouter>[0]> = {}) =>
    (router = new EventRouter({
      serviceUrls: { [SERVICES.chat]: service.url },
      internalToken: INTERNAL_TOKEN,
      timeoutMs: 2_000,
      logger: pino({ level: 'silent' }),
      requestsInFlight: 1,
      ...options,
    }));

  beforeEach(async () => {
    service = await new FakeService().start();
  });
  afterEach(async () => {
    router?.close();
    await service.close();
  });

  it('sends an event at once, alone, when nothing is in flight, with its token, request id, payload and the credential', async () => {
    routerFor();
    const ack = await router.route('send_message', { recipientId: 'r', content: 'hi' }, sender(1));
    expect(ack).toEqual({ echo: { recipientId: 'r', content: 'hi' }, token: 'token-1' });
    expect(service.requests).toHaveLength(1);
    const [request] = service.requests;
    expect(request.path).toBe(SOCKET_EVENTS_PATH);
    expect(request.internal).toBe(INTERNAL_TOKEN);
    expect(request.items).toEqual([{ event: 'send_message', token: 'token-1', requestId: expect.any(String), payload: '{"recipientId":"r","content":"hi"}' }]);
  });

  it('queues the events arriving while a request is in flight and sends them together, each answered with its own result', async () => {
    routerFor();
    service.hold();
    const first = router.route('send_message', { n: 0 }, sender(0));
    await service.waitForRequests(1);
    const more = [1, 2, 3, 4, 5].map((n) => router.route(n % 2 ? 'send_message' : 'typing', { n }, sender(n)));
    // Nothing more is sent while the first request is in flight.
    expect(service.requests).toHaveLength(1);
    service.release();
    expect(await first).toMatchObject({ echo: { n: 0 } });
    expect(await Promise.all(more)).toEqual([1, 2, 3, 4, 5].map((n) => ({ echo: { n }, token: `token-${n}` })));
    expect(service.requests.map((r) => r.items.length)).toEqual([1, 5]);
    expect(service.requests[1].items.map((i) => i.event)).toEqual(['send_message', 'typing', 'send_message', 'typing', 'send_message']);
    expect(new Set(service.requests[1].items.map((i) => i.requestId)).size).toBe(5);
  });

  it('bounds a batch by batchMax, and keeps up to requestsInFlight requests going', async () => {
    routerFor({ batchMax: 3, requestsInFlight: 2 });
    service.hold();
    const acks = Array.from({ length: 9 }, (_, n) => router.route('typing', { n }, sender(n)));
    await service.waitForRequests(2);
    // Two went at once, alone; the other seven wait for them.
    expect(service.requests.map((r) => r.items.length)).toEqual([1, 1]);
    service.release();
    expect(await Promise.all(acks)).toEqual(Array.from({ length: 9 }, (_, n) => ({ echo: { n }, token: `token-${n}` })));
    expect(service.requests.map((r) => r.items.length)).toEqual([1, 1, 3, 3, 1]);
  });

  it("keeps a batch under the services' 100 KB body limit, counted in UTF-8 bytes", async () => {
    routerFor();
    service.hold();
    const blocker = router.route('typing', {}, sender(0));
    await service.waitForRequests(1);
    // 2,000 CJK characters: 2,000 UTF-16 units but 6,000 bytes each; 40 of them are ~240 KB.
    const content = '漢'.repeat(2_000);
    const acks = Array.from({ length: 40 }, (_, n) => router.route('send_message', { content, n }, sender(n)));
    service.release();
    await blocker;
    await Promise.all(acks);
    const sizes = service.requests.slice(1).map((r) => Buffer.byteLength(JSON.stringify({ items: r.items })));
    expect(sizes.length).toBeGreaterThan(2);
    for (const size of sizes) expect(size).toBeLessThan(100 * 1024);
    expect(service.requests.slice(1).reduce((n, r) => n + r.items.length, 0)).toBe(40);
  });

  it("passes each item's error on in its place, with the gateway's request id", async () => {
    routerFor();
    service.answer = (items, res) =>
      json(res, 200, {
        results: items.map((item, i) =>
          i === 1 ? { status: 401, body: { error: 'Session expired', code: ErrorCode.SessionExpired } } : i === 2 ? { status: 500, body: null } : { status: 200, body: { ok: true } },
        ),
      });
    service.hold();
    const blocker = router.route('typing', {}, sender(9));
    await service.waitForRequests(1);
    const acks = [0, 1, 2].map((n) => router.route('typing', {}, sender(n)));
    service.release();
    await blocker;
    const [ok, expired, broken] = await Promise.all(acks);
    const items = service.requests[1].items;
    expect(ok).toEqual({ ok: true });
    expect(expired).toEqual({ error: 'Session expired', code: ErrorCode.SessionExpired, requestId: items[1].requestId });
    expect(broken).toEqual({ error: SocketMessages.serviceUnavailable, code: ErrorCode.ServiceUnavailable, requestId: items[2].requestId });
  });

  it('answers every item of a request the service refused whole with that refusal', async () => {
    routerFor();
    service.answer = (_items, res) => json(res, 413, { error: 'Request body is too large', code: ErrorCode.PayloadTooLarge });
    const ack = await router.route('send_message', { content: 'x' }, sender(1));
    expect(ack).toMatchObject({ error: 'Request body is too large', code: ErrorCode.PayloadTooLarge });
  });

  it('answers a timeout for a request the service sits on, and for an event that waited its whole timeout in the queue', async () => {
    routerFor({ timeoutMs: 300 });
    service.hold();
    const started = Date.now();
    const sent = router.route('typing', {}, sender(1));
    const queued = router.route('typing', {}, sender(2));
    await service.waitForRequests(1);
    expect(await sent).toMatchObject({ error: SocketMessages.serviceTimeout, code: ErrorCode.ServiceUnavailable });
    expect(await queued).toMatchObject({ error: SocketMessages.serviceTimeout, code: ErrorCode.ServiceUnavailable });
    // Both within their own timeout (queueing counts against it), not one timeout after another.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(550);
    service.release();
  });

  it('answers unavailable when the service is down or has no address', async () => {
    const url = service.url;
    await service.close();
    router = new EventRouter({ serviceUrls: { [SERVICES.chat]: url }, internalToken: INTERNAL_TOKEN, timeoutMs: 2_000, logger: pino({ level: 'silent' }) });
    expect(await router.route('send_message', {}, sender(1))).toMatchObject({ error: SocketMessages.serviceUnavailable, code: ErrorCode.ServiceUnavailable });
    expect(await router.route('call:initiate', {}, sender(1))).toMatchObject({ error: SocketMessages.serviceUnavailable, code: ErrorCode.ServiceUnavailable });
    service = await new FakeService().start();
  });
});

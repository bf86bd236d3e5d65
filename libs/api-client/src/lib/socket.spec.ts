import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { AuthMessages, ErrorCode, SOCKET_PATH, SocketMessages, type SessionEndReason } from '@mate/contracts';
import { createSocketClient, SOCKET_CLIENT_OPTIONS, SocketError, type SocketClient } from './socket';

/**
 * A real socket.io server on a free port standing in for the gateway: it accepts the tokens in
 * `live`, refuses others as the gateway does, and lets each test act on the server side.
 */
async function startRealtimeServer(
  transports: ('websocket' | 'polling')[] = ['polling', 'websocket'],
  port = 0,
) {
  const http: HttpServer = createServer();
  const io = new Server(http, { path: SOCKET_PATH, transports });
  const live = new Set<string>();
  const tokensSeen: string[] = [];
  const transportsSeen: string[] = [];
  const urlsSeen: string[] = [];
  /** Per token, the codes the next handshakes are refused with (then the token is checked). */
  const refusals = new Map<string, string[]>();
  io.use((socket, next) => {
    urlsSeen.push(socket.handshake.url);
    const token = (socket.handshake.auth as { token?: string }).token ?? '';
    tokensSeen.push(token);
    transportsSeen.push(socket.conn.transport.name);
    const refusal = refusals.get(token)?.shift();
    if (refusal) return next(Object.assign(new Error(`refused: ${refusal}`), { data: { code: refusal } }));
    if (live.has(token)) return next();
    next(Object.assign(new Error(AuthMessages.sessionExpired), { data: { code: ErrorCode.SessionExpired } }));
  });
  io.on('connection', (socket: Socket) => {
    socket.on(
      'send_message',
      (payload: { recipientId: string; content: string }, ack: (a: unknown) => void) => {
        if (!payload.content)
          return ack({ error: 'content should not be empty', code: ErrorCode.ValidationFailed });
        ack({
          id: 'm1',
          senderId: 'me',
          recipientId: payload.recipientId,
          content: payload.content,
          createdAt: 'now',
        });
      },
    );
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    io,
    live,
    refusals,
    tokensSeen,
    transportsSeen,
    urlsSeen,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}

/** Resolves on the next event of the client socket. */
function next(client: SocketClient, event: 'connect' | 'disconnect'): Promise<unknown> {
  return new Promise((resolve) => client.socket.once(event, resolve));
}

describe('createSocketClient', () => {
  let server: Awaited<ReturnType<typeof startRealtimeServer>>;
  let client: SocketClient | null = null;
  let token: string | null;
  let ended: SessionEndReason[];

  beforeEach(async () => {
    server = await startRealtimeServer();
    token = 'token-1';
    server.live.add('token-1');
    ended = [];
  });

  afterEach(async () => {
    client?.disconnect();
    client = null;
    await server.close();
  });

  function open(options = {}) {
    client = createSocketClient({
      baseUrl: server.url,
      getToken: () => token,
      onSessionEnded: (reason) => ended.push(reason),
      // Fast retries keep the test short; everything else is the spec's.
      options: { reconnectionDelay: 20, reconnectionDelayMax: 50, ...options },
    });
    return client;
  }

  it("uses spec 000 §7's settings: 10 attempts, 1 s to 5 s, 20 s timeout, WebSocket with polling fallback", () => {
    expect(SOCKET_CLIENT_OPTIONS).toMatchObject({
      path: '/socket.io',
      reconnection: true,
      reconnectionAttempts: 10,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      timeout: 20000,
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
    });
    const manager = createSocketClient({ baseUrl: server.url, getToken: () => token }).socket.io;
    expect([
      manager.reconnectionAttempts(),
      manager.reconnectionDelay(),
      manager.reconnectionDelayMax(),
      manager.timeout(),
    ]).toEqual([10, 1000, 5000, 20000]);
  });

  it('sends the current token in the handshake, not in the URL, and only when asked to connect', async () => {
    const c = open();
    expect(server.tokensSeen).toEqual([]);
    c.connect();
    await next(c, 'connect');
    expect(server.tokensSeen).toEqual(['token-1']);
    expect(server.transportsSeen).toEqual(['websocket']);
    expect(server.urlsSeen.join()).not.toContain('token-1');
  });

  it('falls back to long-polling when WebSocket is not available', async () => {
    await server.close();
    server = await startRealtimeServer(['polling']);
    server.live.add('token-1');
    const c = open();
    c.connect();
    await next(c, 'connect');
    expect(c.socket.io.engine.transport.name).toBe('polling');
  });

  it('reconnects by itself after a server-initiated disconnect, with the token of the moment', async () => {
    const c = open();
    c.connect();
    await next(c, 'connect');
    server.live.add('token-2');
    token = 'token-2';
    const reconnected = next(c, 'disconnect').then(() => next(c, 'connect'));
    server.io.disconnectSockets();
    await reconnected;
    expect(c.socket.connected).toBe(true);
    expect(server.tokensSeen).toEqual(['token-1', 'token-2']);
    expect(ended).toEqual([]);
  });

  it('signs out instead of reconnecting when the server says the session was revoked', async () => {
    const c = open();
    c.connect();
    await next(c, 'connect');
    const down = next(c, 'disconnect');
    server.io.emit('session_revoked', { reason: 'revoked' });
    server.io.disconnectSockets();
    await down;
    expect(ended).toEqual(['revoked']);
    expect(c.socket.active).toBe(false);
    expect(server.tokensSeen).toEqual(['token-1']);
  });

  it('signs out when the handshake is refused because the session expired', async () => {
    token = 'dead-token';
    const c = open();
    const refused = new Promise<Error>((resolve) => c.socket.once('connect_error', resolve));
    c.connect();
    expect((await refused).message).toBe(AuthMessages.sessionExpired);
    expect(ended).toEqual(['expired']);
    expect(c.socket.active).toBe(false);
  });

  it('tries a handshake refused as unavailable or busy again with backoff until it connects; never one refused as unauthorized', async () => {
    server.live.add('bad-token');
    server.refusals.set('bad-token', [ErrorCode.Unauthorized]);
    const bad = createSocketClient({
      baseUrl: server.url,
      getToken: () => 'bad-token',
      options: { reconnectionDelay: 20, reconnectionDelayMax: 50 },
    });
    const badRefused = new Promise<Error & { data?: { code?: string } }>((resolve) =>
      bad.socket.once('connect_error', resolve),
    );
    bad.connect();
    expect((await badRefused).data?.code).toBe(ErrorCode.Unauthorized);

    server.refusals.set('token-1', [
      ErrorCode.ServiceUnavailable,
      ErrorCode.RateLimited,
      ErrorCode.ServiceUnavailable,
    ]);
    const c = open();
    const codes: string[] = [];
    c.socket.on('connect_error', (err: Error & { data?: { code?: string } }) =>
      codes.push(String(err.data?.code)),
    );
    const connected = next(c, 'connect');
    c.connect();
    await connected;
    expect(codes).toEqual([
      ErrorCode.ServiceUnavailable,
      ErrorCode.RateLimited,
      ErrorCode.ServiceUnavailable,
    ]);
    expect(server.tokensSeen.filter((t) => t === 'token-1')).toHaveLength(4);
    expect(ended).toEqual([]);
    // The busy client needed three backoffs; the unauthorized one, refused before it, tried once.
    expect(server.tokensSeen.filter((t) => t === 'bad-token')).toHaveLength(1);
    expect(bad.socket.active).toBe(false);
    bad.disconnect();
  });

  it('stops retrying a refused handshake once the app disconnects', async () => {
    server.refusals.set('token-1', [ErrorCode.ServiceUnavailable, ErrorCode.ServiceUnavailable]);
    const c = open({ reconnectionDelay: 200, reconnectionDelayMax: 200 });
    const refused = new Promise((resolve) => c.socket.once('connect_error', resolve));
    c.connect();
    await refused;
    c.disconnect();
    // A second client with the same delays connects after its own refusals; the first never came back.
    server.refusals.set('token-2', [ErrorCode.ServiceUnavailable, ErrorCode.ServiceUnavailable]);
    server.live.add('token-2');
    const other = createSocketClient({
      baseUrl: server.url,
      getToken: () => 'token-2',
      options: { reconnectionDelay: 200, reconnectionDelayMax: 200 },
    });
    const otherUp = new Promise<void>((resolve) => other.socket.once('connect', () => resolve()));
    other.connect();
    await otherUp;
    other.disconnect();
    expect(server.tokensSeen.filter((t) => t === 'token-1')).toHaveLength(1);
  });

  it("resolves a request with the acknowledgement and rejects with the server's error", async () => {
    const c = open();
    c.connect();
    await next(c, 'connect');
    await expect(c.request('send_message', { recipientId: 'u2', content: 'Hi' })).resolves.toMatchObject({
      content: 'Hi',
      recipientId: 'u2',
    });
    const refused = await c
      .request('send_message', { recipientId: 'u2', content: '' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SocketError);
    expect(refused).toMatchObject({
      message: 'content should not be empty',
      code: ErrorCode.ValidationFailed,
    });
  });

  it("refuses to send without a connection: 'Socket not connected'", async () => {
    const c = open();
    await expect(c.request('typing', { recipientId: 'u2' })).rejects.toThrow(SocketMessages.notConnected);
  });

  it('keeps coming back after socket.io gave up its reconnection attempts (a gateway away longer than they last)', async () => {
    const c = open({ reconnectionAttempts: 2 });
    c.connect();
    await next(c, 'connect');
    const port = Number(new URL(server.url).port);
    let failedSeries = 0;
    c.socket.io.on('reconnect_failed', () => failedSeries++);
    await server.close();
    // Two series of two attempts each fail while nothing listens.
    await new Promise<void>((resolve) => {
      const check = () => (failedSeries >= 2 ? resolve() : setTimeout(check, 10));
      check();
    });
    server = await startRealtimeServer(undefined, port);
    server.live.add('token-1');
    await next(c, 'connect');
    expect(c.socket.connected).toBe(true);
    expect(ended).toEqual([]);
  });

  it('stops coming back once the app disconnects, even after socket.io gave up', async () => {
    const c = open({ reconnectionAttempts: 1 });
    c.connect();
    await next(c, 'connect');
    const port = Number(new URL(server.url).port);
    const gaveUp = new Promise<void>((resolve) => c.socket.io.once('reconnect_failed', () => resolve()));
    await server.close();
    await gaveUp;
    c.disconnect();
    server = await startRealtimeServer(undefined, port);
    server.live.add('token-1');
    server.live.add('token-2');
    // Another client with the same delays, refused four times, connects after its backoffs; the
    // disconnected one, which would have come back within one of them, never shows up.
    server.refusals.set('token-2', Array(4).fill(ErrorCode.ServiceUnavailable));
    const other = createSocketClient({
      baseUrl: server.url,
      getToken: () => 'token-2',
      options: { reconnectionDelay: 20, reconnectionDelayMax: 50 },
    });
    const otherUp = next(other, 'connect');
    other.connect();
    await otherUp;
    other.disconnect();
    expect(server.tokensSeen).toEqual(Array(5).fill('token-2'));
    expect(c.socket.connected).toBe(false);
  });
});

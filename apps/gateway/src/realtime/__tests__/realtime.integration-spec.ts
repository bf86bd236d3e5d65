import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { register } from 'prom-client';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import {
  AuthMessages,
  ErrorCode,
  SOCKET_PATH,
  SocketMessages,
  sessionRoom,
  userRoom,
  type ChatMessagePayload,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@mate/contracts';
import { MetricName, RealtimeEmitter, SessionStore } from '@mate/server-kit';
import { issueSession, startService, waitFor, type RunningService } from '@mate/server-kit/testing';
import { createTestRedisNamespace, freePort } from '@mate/testing';
import { AppModule } from '../../app.module';
import type { GatewayEnv } from '../../gateway.env';
import { gatewayHttp } from '../../gateway.http';
import { RealtimeServer } from '../realtime.server';
import { slowReads, TestChatServiceModule } from './test-chat-service';

const JWT_SECRET = 'realtime-integration-secret-0123456789';
const APP_ORIGIN = 'http://app.mate.test';
const PAYLOAD_LIMIT = 4096;
const EVENTS_PER_10_SECONDS = 20;
const ACK_TIMEOUT_MS = 400;
const HANDSHAKES_PER_MINUTE = 3;
const SOCKETS_PER_USER = 3;
const EVENTS_IN_FLIGHT = 3;

type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/** A loopback URL nothing listens on: a service that is down. */
async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

describe('gateway realtime (socket.io)', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let chat: RunningService;
  let gateway: RunningService;
  /** A gateway with a tiny per-address budget, for the handshake limit. */
  let limited: RunningService;
  let redis: Redis;
  let sessions: SessionStore;
  const sockets: MemberSocket[] = [];

  beforeAll(async () => {
    ns = await createTestRedisNamespace('realtime');
    const common = { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, JWT_SECRET, LOG_LEVEL: 'silent', WORKERS: 'off', OUTBOX_RELAY: 'off' };
    limited = await startService(
      (e) => AppModule.forRoot(e),
      { ...common, KEY_PREFIX: `${ns.prefix}-limited`, RATE_LIMIT_PER_MINUTE: String(HANDSHAKES_PER_MINUTE), TRUST_PROXY: 'loopback' },
      (env) => gatewayHttp(env as GatewayEnv),
      { migrate: false },
    );
    chat = await startService((e) => TestChatServiceModule.forRoot(e), common, {}, { migrate: false });
    gateway = await startService(
      (e) => AppModule.forRoot(e),
      {
        ...common,
        CORS_ORIGINS: APP_ORIGIN,
        CHAT_SERVICE_URL: chat.url,
        CALL_SERVICE_URL: await closedPortUrl(),
        SOCKET_MAX_PAYLOAD_BYTES: String(PAYLOAD_LIMIT),
        SOCKET_EVENTS_PER_10_SECONDS: String(EVENTS_PER_10_SECONDS),
        SOCKET_ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS),
        SOCKET_MAX_PER_USER: String(SOCKETS_PER_USER),
        SOCKET_MAX_EVENTS_IN_FLIGHT: String(EVENTS_IN_FLIGHT),
      },
      (env) => gatewayHttp(env as GatewayEnv),
      { migrate: false },
    );
    redis = new Redis(ns.url);
    sessions = new SessionStore(redis, ns.prefix);
  });

  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });

  afterAll(async () => {
    slowReads.open();
    await gateway?.close();
    await chat?.close();
    await limited?.close();
    await redis?.quit();
    await ns?.cleanup();
  });

  function socket(auth: Record<string, unknown> | undefined, options: Parameters<typeof connect>[1] = {}): MemberSocket {
    const s: MemberSocket = connect(gateway.url, {
      path: SOCKET_PATH,
      auth,
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      ...options,
    });
    sockets.push(s);
    return s;
  }

  /** Resolves once connected (and the server's `connected` event arrived), rejects on connect_error. */
  function connected(s: MemberSocket): Promise<{ userId: string }> {
    return new Promise((resolve, reject) => {
      s.once('connected', resolve);
      s.once('connect_error', reject);
    });
  }

  function refusal(s: MemberSocket): Promise<Error & { data?: { code?: string } }> {
    return new Promise((resolve, reject) => {
      s.once('connect_error', resolve);
      s.once('connect', () => reject(new Error('connected, but should have been refused')));
    });
  }

  function disconnection(s: MemberSocket): Promise<string> {
    return new Promise((resolve) => s.once('disconnect', (reason) => resolve(reason)));
  }

  async function member() {
    const session = await issueSession(sessions, JWT_SECRET);
    const s = socket({ token: session.token });
    await connected(s);
    return { ...session, socket: s };
  }

  const realtime = () => gateway.app.get(RealtimeServer);

  describe('handshake', () => {
    it('refuses a connection without a token', async () => {
      const err = await refusal(socket(undefined));
      expect(err.message).toBe(AuthMessages.authRequired);
      expect(err.data?.code).toBe(ErrorCode.Unauthorized);
    });

    it('refuses a forged token', async () => {
      const { token } = await issueSession(sessions, 'another-secret-0123456789-abcdef');
      expect((await refusal(socket({ token }))).message).toBe(AuthMessages.authRequired);
    });

    it('refuses a signed token whose session is no longer live', async () => {
      const { token, sessionId, userId } = await issueSession(sessions, JWT_SECRET);
      await sessions.revoke(sessionId, userId);
      const err = await refusal(socket({ token }));
      expect(err.message).toBe(AuthMessages.sessionExpired);
      expect(err.data?.code).toBe(ErrorCode.SessionExpired);
    });

    it('refuses the socket of an account whose email is not verified, until it is (issue 7, item 7)', async () => {
      const { token, userId } = await issueSession(sessions, JWT_SECRET, undefined, undefined, { verified: false });
      const err = await refusal(socket({ token }));
      expect(err.message).toBe(AuthMessages.emailNotVerified);
      expect(err.data?.code).toBe(ErrorCode.EmailNotVerified);
      await sessions.setVerified(userId);
      expect(await connected(socket({ token }))).toEqual({ userId });
    });

    it('accepts a live session, says who is connected and joins the user and session rooms', async () => {
      const { userId, sessionId, socket: s } = await member();
      const [server] = await realtime().server.in(sessionRoom(sessionId)).fetchSockets();
      expect(server.data.userId).toBe(userId);
      expect([...server.rooms]).toEqual(expect.arrayContaining([userRoom(userId), sessionRoom(sessionId)]));
      expect(s.connected).toBe(true);
    });

    it('takes the token from the query parameter too', async () => {
      const { token, userId } = await issueSession(sessions, JWT_SECRET);
      const s = socket(undefined, { query: { token } });
      expect(await connected(s)).toEqual({ userId });
    });

    it('slides the session like a request does', async () => {
      const { token, sessionId } = await issueSession(sessions, JWT_SECRET);
      await redis.hset(`${ns.prefix}:session:${sessionId}`, 'lastActivity', '1');
      await connected(socket({ token }));
      expect(Number(await redis.hget(`${ns.prefix}:session:${sessionId}`, 'lastActivity'))).toBeGreaterThan(1);
    });

    it('keeps the bearer token out of the session stored for connection state recovery', async () => {
      const { socket: s, token, userId } = await member();
      // The key named by the pid the client keeps (one SCAN page of the shared Redis may miss it).
      const { _pid: pid } = s as unknown as { _pid: string };
      s.io.engine.close();
      const stored = await waitFor(
        async () => {
          const value = await redis.get(`${ns.prefix}:sio:session:${pid}`);
          return value && Buffer.from(value, 'base64').toString('latin1');
        },
        { what: 'the recovery session of the dropped socket', timeoutMs: 4000 },
      );
      expect(stored).toContain(userId);
      expect(stored).not.toContain(token);
    });

    it('counts open sockets in mate_socket_connections', async () => {
      const value = async () => (await register.getSingleMetric(MetricName.socketConnections)?.get())?.values.find((v) => v.labels.service === 'gateway')?.value ?? 0;
      const open = () => realtime().server.of('/').sockets.size;
      // The previous tests' sockets close asynchronously: start once the server has none.
      await waitFor(async () => open() === 0 && (await value()) === 0, { what: 'no open sockets' });
      const { socket: s } = await member();
      expect(await value()).toBe(1);
      s.disconnect();
      await waitFor(async () => (await value()) === 0, { what: 'the gauge to drop again' });
    });
  });

  describe('handshake rate', () => {
    it("counts each handshake against its address's request budget, behind a trusted proxy by X-Forwarded-For", async () => {
      const attempt = (address: string) => {
        const s: MemberSocket = connect(limited.url, {
          path: SOCKET_PATH,
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
          extraHeaders: { 'x-forwarded-for': address },
        });
        sockets.push(s);
        return refusal(s);
      };
      for (let i = 0; i < HANDSHAKES_PER_MINUTE; i++) expect((await attempt('203.0.113.7')).message).toBe(AuthMessages.authRequired);
      const refused = await attempt('203.0.113.7');
      expect(refused.message).toBe(AuthMessages.tooManyAttempts);
      expect(refused.data?.code).toBe(ErrorCode.RateLimited);
      expect((await attempt('198.51.100.9')).message).toBe(AuthMessages.authRequired);
    });

    it("refuses a member's sockets over SOCKET_MAX_PER_USER, even when they all arrive at once", async () => {
      const first = await issueSession(sessions, JWT_SECRET);
      const second = await issueSession(sessions, JWT_SECRET, first.userId);
      // Twice the allowance, from two sessions of one member, in parallel: the handshakes interleave.
      const burst = Array.from({ length: SOCKETS_PER_USER * 2 }, (_, i) => socket({ token: (i % 2 ? second : first).token }));
      const outcomes = await Promise.all(burst.map((s) => connected(s).then(() => 'connected', (err: Error & { data?: { code?: string } }) => err)));
      expect(outcomes.filter((o) => o === 'connected')).toHaveLength(SOCKETS_PER_USER);
      for (const o of outcomes.filter((o) => o !== 'connected')) {
        expect(o).toMatchObject({ message: SocketMessages.tooManyConnections, data: { code: ErrorCode.RateLimited } });
      }
      // Another member is not affected, and a closed socket frees its place.
      await member();
      const open = burst.find((s) => s.connected) as MemberSocket;
      open.disconnect();
      await waitFor(async () => (realtime().server.of('/').adapter.rooms.get(userRoom(first.userId))?.size ?? 0) < SOCKETS_PER_USER, {
        what: 'the closed socket to leave its rooms',
      });
      await connected(socket({ token: first.token }));
    });
  });

  describe('origin', () => {
    it('refuses a browser on another origin, over WebSocket and over polling', async () => {
      const { token } = await issueSession(sessions, JWT_SECRET);
      await refusal(socket({ token }, { extraHeaders: { origin: 'http://evil.example' } }));
      await refusal(socket({ token }, { transports: ['polling'], extraHeaders: { origin: 'http://evil.example' } }));
      const res = await fetch(`${gateway.url}${SOCKET_PATH}/?EIO=4&transport=polling`, { headers: { origin: 'http://evil.example' } });
      expect(res.status).toBe(403);
    });

    it("accepts the apps' origin", async () => {
      const { token, userId } = await issueSession(sessions, JWT_SECRET);
      expect(await connected(socket({ token }, { extraHeaders: { origin: APP_ORIGIN } }))).toEqual({ userId });
      expect(await connected(socket({ token }, { transports: ['polling'], extraHeaders: { origin: APP_ORIGIN } }))).toEqual({ userId });
    });
  });

  describe('revocation', () => {
    it('disconnects the sockets of a revoked session within 1 s and tells them why; other sessions stay', async () => {
      const a = await member();
      const b = await member();
      const revoked = new Promise<{ reason: string }>((resolve) => a.socket.once('session_revoked', resolve));
      const gone = disconnection(a.socket);
      const started = Date.now();
      await sessions.revoke(a.sessionId, a.userId);
      await gone;
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(1000);
      expect(await revoked).toEqual({ reason: 'revoked' });
      expect(b.socket.connected).toBe(true);
    });

    it('disconnects every other device on "log out other devices", keeping the current one', async () => {
      const current = await member();
      const otherSession = await issueSession(sessions, JWT_SECRET, current.userId);
      const other = socket({ token: otherSession.token });
      await connected(other);
      const gone = disconnection(other);
      const started = Date.now();
      await sessions.revokeAllForUser(current.userId, current.sessionId);
      await gone;
      expect(Date.now() - started).toBeLessThan(1000);
      expect(current.socket.connected).toBe(true);
    });

    it('closes a socket whose session vanished without a notice (lost message) on the next re-check', async () => {
      const a = await member();
      const gone = disconnection(a.socket);
      await redis.del(`${ns.prefix}:session:${a.sessionId}`);
      await realtime().recheckSessions();
      await gone;
      expect(a.socket.connected).toBe(false);
    });
  });

  describe('connection state recovery', () => {
    const message = (recipientId: string, content: string): ChatMessagePayload => ({
      id: randomUUID(),
      senderId: randomUUID(),
      recipientId,
      content,
      createdAt: new Date().toISOString(),
      seq: 1,
      isRead: false,
      senderName: null,
      clientId: null,
    });
    const push = (userId: string, content: string) => new RealtimeEmitter(redis, ns.prefix).toUser(userId).emit('new_message', message(userId, content));

    /** A member whose transport dropped as in a network failure, and what its client resumes with. */
    async function dropped() {
      const m = await member();
      // A first push gives the client an offset to resume from.
      await Promise.all([new Promise((resolve) => m.socket.once('new_message', resolve)), push(m.userId, 'before the drop')]);
      const { _pid: pid, _lastOffset: offset } = m.socket as unknown as { _pid: string; _lastOffset: string };
      m.socket.io.engine.close();
      await waitFor(async () => (await redis.exists(`${ns.prefix}:sio:session:${pid}`)) === 1, { what: 'the stored recovery session' });
      return { ...m, pid, offset };
    }

    /**
     * A client resuming a dropped socket's recovery session with `token`, as socket.io-client does
     * (it sends the pid and offset it kept). `seen()`: the contents of every packet it was sent,
     * connected or not, as a raw client would read them.
     */
    function resume(token: string, { pid, offset }: { pid: string; offset: string }) {
      const s = socket({ token }, { autoConnect: false });
      Object.assign(s, { _pid: pid, _lastOffset: offset });
      const packets: unknown[] = [];
      s.io.on('packet', (packet) => packets.push(packet.data));
      s.connect();
      return { s, seen: () => JSON.stringify(packets) };
    }

    it('gives the same live session its rooms and the pushes it missed', async () => {
      const a = await dropped();
      await push(a.userId, 'missed while away');
      const { s } = resume(a.token, a);
      const got = new Promise<ChatMessagePayload>((resolve) => s.once('new_message', resolve));
      await connected(s);
      expect(s.recovered).toBe(true);
      expect((await got).content).toBe('missed while away');
    });

    it('gives a session revoked while away nothing back, not even the pushes it missed', async () => {
      const a = await dropped();
      await sessions.revoke(a.sessionId, a.userId);
      await push(a.userId, 'pushed after the revocation');
      const { s, seen } = resume(a.token, a);
      const err = await refusal(s);
      expect(err.data?.code).toBe(ErrorCode.SessionExpired);
      expect(seen()).not.toContain('pushed after the revocation');
    });

    it("never hands a dropped socket's rooms or missed pushes to another member's token", async () => {
      const a = await dropped();
      const b = await issueSession(sessions, JWT_SECRET);
      await push(a.userId, 'missed by the first member');
      const { s, seen } = resume(b.token, a);
      await connected(s);
      expect(s.recovered).toBe(false);
      await push(a.userId, 'for the first member only');
      // Pushes are delivered in stream order: once the second member's own push is in, an earlier one to the first would be too.
      const own = new Promise<void>((resolve) => s.on('new_message', (m) => m.content === 'for the second member' && resolve()));
      await push(b.userId, 'for the second member');
      await own;
      expect(seen()).not.toContain('first member');
    });
  });

  describe('client events', () => {
    it('routes send_message to chat-service with the sender, acknowledges the result and pushes to the recipient', async () => {
      const alice = await member();
      const bob = await member();
      const delivered = new Promise<ChatMessagePayload>((resolve) => bob.socket.once('new_message', resolve));
      const ack = await alice.socket.timeout(5000).emitWithAck('send_message', { recipientId: bob.userId, content: 'Hi Bob', clientId: 'c1' });
      expect(ack).toMatchObject({ senderId: alice.userId, recipientId: bob.userId, content: 'Hi Bob', clientId: 'c1' });
      expect(await delivered).toEqual(ack);
    });

    it('answers a payload the service refuses with its validation error', async () => {
      const alice = await member();
      expect(await alice.socket.timeout(5000).emitWithAck('send_message', { recipientId: alice.userId, content: 'x', admin: true } as never)).toMatchObject({
        error: 'Unknown field: admin',
        code: ErrorCode.ValidationFailed,
      });
      expect(await alice.socket.timeout(5000).emitWithAck('typing', { recipientId: 'not-a-user' })).toMatchObject({
        error: 'recipientId must be a user id',
      });
    });

    it('answers an unknown client event with an error', async () => {
      const alice = await member();
      const ack = await (alice.socket as unknown as ClientSocket).timeout(5000).emitWithAck('delete_everything', { all: true });
      expect(ack).toEqual({ error: SocketMessages.unknownEvent, code: ErrorCode.NotFound });
    });

    it('answers a payload that is not one JSON object with an error', async () => {
      const alice = await member();
      const raw = alice.socket as unknown as ClientSocket;
      expect(await raw.timeout(5000).emitWithAck('typing', 'bob')).toEqual({ error: SocketMessages.invalidPayload, code: ErrorCode.ValidationFailed });
      expect(await raw.timeout(5000).emitWithAck('typing', { recipientId: alice.userId }, 'extra')).toMatchObject({ error: SocketMessages.invalidPayload });
    });

    it('answers with an error when the owning service is down', async () => {
      const alice = await member();
      expect(await alice.socket.timeout(5000).emitWithAck('call:initiate', { to: alice.userId, callerName: 'Alice' })).toMatchObject({
        error: SocketMessages.serviceUnavailable,
        code: ErrorCode.ServiceUnavailable,
      });
    });

    it('answers with an error when the service is slower than the timeout', async () => {
      const alice = await member();
      slowReads.reset();
      const started = Date.now();
      const ack = await alice.socket.timeout(5000).emitWithAck('mark_as_read', { otherUserId: alice.userId });
      expect(ack).toMatchObject({ error: SocketMessages.serviceTimeout });
      expect(Date.now() - started).toBeGreaterThanOrEqual(ACK_TIMEOUT_MS - 50);
      slowReads.open();
    });

    it('answers events over SOCKET_MAX_EVENTS_IN_FLIGHT at once with an error while the service is slow', async () => {
      const alice = await member();
      slowReads.reset();
      const send = () => alice.socket.timeout(5000).emitWithAck('mark_as_read', { otherUserId: alice.userId });
      const waiting = Array.from({ length: EVENTS_IN_FLIGHT }, send);
      // Answered at once, not after the service's timeout: nothing more was sent to the slow service.
      const started = Date.now();
      expect(await send()).toMatchObject({ error: SocketMessages.tooManyPending, code: ErrorCode.RateLimited });
      expect(Date.now() - started).toBeLessThan(ACK_TIMEOUT_MS / 2);
      slowReads.open();
      expect(await Promise.all(waiting)).toEqual(Array.from({ length: EVENTS_IN_FLIGHT }, () => ({ readUpTo: 0 })));
      expect(await send()).toEqual({ readUpTo: 0 });
    });

    it('refuses a session revoked after connecting when the service checks it again', async () => {
      const alice = await member();
      // Deleted behind the gateway's back (no revocation notice): the service's guard still refuses.
      await redis.del(`${ns.prefix}:session:${alice.sessionId}`);
      expect(await alice.socket.timeout(5000).emitWithAck('typing', { recipientId: alice.userId })).toMatchObject({
        error: AuthMessages.sessionExpired,
        code: ErrorCode.SessionExpired,
      });
    });
  });

  describe('limits', () => {
    it('closes a socket that stops reading while pushes pile up for it', async () => {
      const reader = await member();
      const open = () => realtime().server.of('/').adapter.rooms.get(userRoom(reader.userId))?.size ?? 0;
      expect(open()).toBe(1);
      // The client stops reading: the kernel's buffers fill, then the server's queue for the socket grows.
      const tcp = (reader.socket.io.engine.transport as unknown as { ws: { _socket: { pause(): void; destroy(): void } } }).ws._socket;
      tcp.pause();
      const emitter = new RealtimeEmitter(redis, ns.prefix);
      const content = 'z'.repeat(8 * 1024);
      const push = () =>
        emitter.toUser(reader.userId).emit('new_message', { id: randomUUID(), senderId: randomUUID(), recipientId: reader.userId, content, createdAt: 'now', seq: 1, isRead: false, senderName: null, clientId: null });
      // At most 40 MB, in rounds, until the server lets go of the socket (a ping timeout would take 45 s).
      for (let round = 0; round < 25 && open() > 0; round++) await Promise.all(Array.from({ length: 200 }, push));
      await waitFor(async () => open() === 0, { what: 'the server to close the socket that stopped reading', timeoutMs: 5000 });
      tcp.destroy();
    }, 20_000);

    it('closes a socket that sends a message over the payload limit; one under it goes through', async () => {
      const alice = await member();
      const bob = await member();
      expect(await alice.socket.timeout(5000).emitWithAck('send_message', { recipientId: bob.userId, content: 'y'.repeat(PAYLOAD_LIMIT / 2) })).toMatchObject({
        senderId: alice.userId,
      });
      const gone = disconnection(alice.socket);
      alice.socket.emit('send_message', { recipientId: bob.userId, content: 'y'.repeat(PAYLOAD_LIMIT * 2) });
      expect(await gone).toBe('transport close');
    });

    it('refuses events over the per-socket rate with an error ack, and disconnects a socket that keeps flooding', async () => {
      const alice = await member();
      const acks = await Promise.all(
        Array.from({ length: EVENTS_PER_10_SECONDS + 5 }, () => alice.socket.timeout(5000).emitWithAck('typing', { recipientId: alice.userId })),
      );
      const refused = acks.filter((a) => 'error' in a && a.error === SocketMessages.tooManyEvents);
      expect(refused).toHaveLength(5);
      expect(refused[0]).toMatchObject({ code: ErrorCode.RateLimited });
      const gone = disconnection(alice.socket);
      for (let i = 0; i < EVENTS_PER_10_SECONDS * 2; i++) alice.socket.emit('typing', { recipientId: alice.userId });
      expect(await gone).toBe('io server disconnect');
    });
  });
});

import Redis from 'ioredis';
import { Client } from 'pg';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import {
  SOCKET_PATH,
  type AuthResponse,
  type ChatMessagePayload,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@mate/contracts';
import { RealtimeEmitter } from '@mate/server-kit';
import {
  call,
  runCommand,
  startService,
  startServiceProcess,
  waitFor,
  type RunningService,
  type ServiceProcess,
} from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, freePort, type TestDatabase } from '@mate/testing';
import { TestChatServiceModule } from './test-chat-service';

const JWT_SECRET = 'realtime-replicas-secret-0123456789';
const PASSWORD = 'correct horse battery';
const GATEWAY_MAIN = 'apps/gateway/src/main.ts';
const AUTH_MAIN = 'apps/auth-service/src/main.ts';

type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Two gateway replicas in their own processes (started from source), sharing one Redis prefix,
 * with the real auth-service behind them, also in its own process. Services reach members through
 * whichever replica holds their socket.
 */
describe('gateway realtime across two replicas', () => {
  jest.setTimeout(60_000);

  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let db: TestDatabase;
  let chat: RunningService;
  let auth: ServiceProcess;
  let gatewayA: ServiceProcess;
  let gatewayB: ServiceProcess;
  let redis: Redis;
  let emitter: RealtimeEmitter;
  const sockets: MemberSocket[] = [];
  /** Each socket's first `connected` (or refusal), watched from its creation so none is missed. */
  const arrivals = new WeakMap<MemberSocket, Promise<void>>();

  beforeAll(async () => {
    [ns, db] = await Promise.all([createTestRedisNamespace('replicas'), createTestDatabase('replicas')]);
    const common = { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, JWT_SECRET, LOG_LEVEL: 'warn', WORKERS: 'off', OUTBOX_RELAY: 'off' };
    chat = await startService((e) => TestChatServiceModule.forRoot(e), { ...common, LOG_LEVEL: 'silent' }, {}, { migrate: false });
    const authEnv = { ...common, DATABASE_URL: db.url, IP_RATE_LIMIT_MULTIPLIER: '10' };
    await runCommand(AUTH_MAIN, 'migrate', authEnv);
    const [authPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort()]);
    const gatewayEnv = { ...common, AUTH_SERVICE_URL: `http://127.0.0.1:${authPort}`, CHAT_SERVICE_URL: chat.url };
    [auth, gatewayA, gatewayB] = await Promise.all([
      startServiceProcess(AUTH_MAIN, authPort, authEnv),
      startServiceProcess(GATEWAY_MAIN, portA, gatewayEnv),
      startServiceProcess(GATEWAY_MAIN, portB, gatewayEnv),
    ]);
    redis = new Redis(ns.url);
    emitter = new RealtimeEmitter(redis, ns.prefix);
  }, 120_000);

  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });

  afterAll(async () => {
    await Promise.all([gatewayA?.stop(), gatewayB?.stop(), auth?.stop()]);
    await chat?.close();
    await redis?.quit();
    await ns?.cleanup();
    await db?.drop();
  });

  function socket(gateway: ServiceProcess, token: string, reconnection = false): MemberSocket {
    const s: MemberSocket = connect(gateway.url, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'], reconnection, forceNew: true });
    sockets.push(s);
    arrivals.set(
      s,
      new Promise((resolve, reject) => {
        s.once('connected', () => resolve());
        s.once('connect_error', reject);
      }),
    );
    return s;
  }

  const connected = (s: MemberSocket): Promise<void> => arrivals.get(s) as Promise<void>;

  function next<E extends keyof ServerToClientEvents>(s: MemberSocket, event: E): Promise<Parameters<ServerToClientEvents[E]>[0]> {
    const untyped = s as unknown as { once(event: string, listener: (payload: unknown) => void): void };
    return new Promise((resolve) => untyped.once(event, resolve as (payload: unknown) => void));
  }

  let emails = 0;
  /**
   * Registers through replica A (the edge proxies to auth-service) and opens the verification link
   * (realtime is for verified members), or signs in again through B. The link is read from
   * auth-service's outbox: its relay is off here, so no email is sent.
   */
  async function register(): Promise<AuthResponse> {
    const email = `member${++emails}-${ns.prefix}@mate.test`;
    const res = await call<AuthResponse>(gatewayA.url, 'POST', '/api/auth/register', { body: { email, password: PASSWORD } });
    expect(res.status).toBe(201);
    const outbox = new Client({ connectionString: db.url });
    await outbox.connect();
    try {
      const { rows } = await outbox.query<{ body: string }>(`SELECT body::text AS body FROM outbox WHERE kind = 'job' AND body::text LIKE $1`, [`%${email}%`]);
      const token = /verify-email\?token=([\w-]+)/.exec(rows[0]?.body ?? '')?.[1];
      expect((await call(gatewayA.url, 'POST', '/api/verification/verify', { body: { token } })).status).toBe(200);
    } finally {
      await outbox.end();
    }
    return res.body;
  }
  async function signInAgain(email: string): Promise<string> {
    const res = await call<AuthResponse>(gatewayB.url, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    return res.body.token;
  }

  const aMessage = (recipientId: string): ChatMessagePayload => ({
    id: `m-${Date.now()}`,
    senderId: 'someone',
    recipientId,
    content: 'hello',
    createdAt: new Date().toISOString(),
    seq: 1,
    isRead: false,
    senderName: null,
    clientId: null,
  });

  it("delivers a service's push to the user's sockets on both replicas", async () => {
    const ada = await register();
    const onA = socket(gatewayA, ada.token);
    const onB = socket(gatewayB, await signInAgain(ada.user.email));
    await Promise.all([connected(onA), connected(onB)]);
    const message = aMessage(ada.user.id);
    const [gotA, gotB] = await Promise.all([next(onA, 'new_message'), next(onB, 'new_message'), emitter.toUser(ada.user.id).emit('new_message', message)]);
    expect(gotA).toEqual(message);
    expect(gotB).toEqual(message);
  });

  it('routes a client event from a socket on one replica to the service, which reaches the recipient on the other', async () => {
    const ada = await register();
    const bob = await register();
    const adaOnA = socket(gatewayA, ada.token);
    const bobOnB = socket(gatewayB, bob.token);
    await Promise.all([connected(adaOnA), connected(bobOnB)]);
    const delivered = next(adaOnA, 'new_message');
    const ack = await bobOnB.timeout(5000).emitWithAck('send_message', { recipientId: ada.user.id, content: 'Hi Ada' });
    expect(ack).toMatchObject({ senderId: bob.user.id, recipientId: ada.user.id, content: 'Hi Ada' });
    expect(await delivered).toEqual(ack);
  });

  it("logging out through the real auth-service closes that session's sockets on every replica within 1 s", async () => {
    const ada = await register();
    const otherDevice = await signInAgain(ada.user.email);
    const onA = socket(gatewayA, ada.token);
    const onB = socket(gatewayB, ada.token);
    const stays = socket(gatewayB, otherDevice);
    await Promise.all([connected(onA), connected(onB), connected(stays)]);
    const gone = Promise.all([next(onA, 'session_revoked'), next(onB, 'session_revoked'), new Promise((r) => onA.once('disconnect', r)), new Promise((r) => onB.once('disconnect', r))]);
    const started = Date.now();
    const res = await call(gatewayB.url, 'POST', '/api/auth/logout', { token: ada.token });
    expect(res.status).toBeLessThan(300);
    await gone;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(onA.connected || onB.connected).toBe(false);
    expect(stays.connected).toBe(true);
  });

  it('a socket that loses its connection and comes back through the other replica gets the pushes it missed', async () => {
    const ada = await register();
    const s = socket(gatewayA, ada.token, true);
    await connected(s);
    // Let a first push carry an offset, so the client can name where it stopped.
    await Promise.all([next(s, 'new_message'), emitter.toUser(ada.user.id).emit('new_message', aMessage(ada.user.id))]);
    await new Promise<void>((resolve) => {
      s.once('disconnect', () => resolve());
      // The next reconnection goes to replica B; the transport is cut as a network failure would.
      (s.io as unknown as { uri: string }).uri = gatewayB.url;
      s.io.engine.close();
    });
    const missed = aMessage(ada.user.id);
    await emitter.toUser(ada.user.id).emit('new_message', missed);
    const got = next(s, 'new_message');
    await waitFor(async () => s.connected, { what: 'the reconnection through replica B' });
    expect(s.recovered).toBe(true);
    expect(await got).toEqual(missed);
  });
});

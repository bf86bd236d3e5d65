import Redis from 'ioredis';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@mate/contracts';
import { PresenceReader, SessionStore, presenceInstanceKey, presenceUserKey } from '@mate/server-kit';
import { issueSession, startService, startServiceProcess, waitFor, type RunningService, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestRedisNamespace, freePort } from '@mate/testing';
import { AppModule } from '../../app.module';
import type { GatewayEnv } from '../../gateway.env';
import { gatewayHttp } from '../../gateway.http';
import { RealtimeServer } from '../realtime.server';
import { presenceGatewayModule } from './presence-gateway';

const JWT_SECRET = 'presence-integration-secret-0123456789';
/** The short presence TTL of the gateways that are killed or left to expire in these tests. */
const SHORT_TTL_MS = 1500;
const PRESENCE_MAIN = 'apps/gateway/src/realtime/__tests__/presence-gateway.main.ts';

type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Presence through real gateways: each socket is recorded in Redis, and services' `PresenceReader`
 * (server-kit) counts only the sockets of gateway instances whose heartbeat is alive.
 */
describe('gateway presence', () => {
  jest.setTimeout(60_000);

  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let gateway: RunningService;
  /** A second instance on the same prefix, with a short TTL. */
  let second: RunningService;
  let redis: Redis;
  let sessions: SessionStore;
  let presence: PresenceReader;
  const sockets: MemberSocket[] = [];

  const common = () => ({ REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, JWT_SECRET, LOG_LEVEL: 'silent', WORKERS: 'off', OUTBOX_RELAY: 'off' });

  beforeAll(async () => {
    ns = await createTestRedisNamespace('presence');
    gateway = await startService((e) => AppModule.forRoot(e), common(), (env) => gatewayHttp(env as GatewayEnv), { migrate: false });
    second = await startService((e) => presenceGatewayModule(e, SHORT_TTL_MS), common(), (env) => gatewayHttp(env as GatewayEnv), { migrate: false });
    redis = new Redis(ns.url);
    sessions = new SessionStore(redis, ns.prefix);
    presence = new PresenceReader(redis, ns.prefix);
  }, 60_000);

  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });

  afterAll(async () => {
    await gateway?.close();
    await second?.close();
    await redis?.quit();
    await ns?.cleanup();
  }, 30_000);

  async function socket(url: string, token: string): Promise<MemberSocket> {
    const s: MemberSocket = connect(url, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(s);
    await new Promise<void>((resolve, reject) => {
      s.once('connected', () => resolve());
      s.once('connect_error', reject);
    });
    return s;
  }

  const online = (userId: string, reader = presence) => waitFor(() => reader.isOnline(userId), { timeoutMs: 5000, what: `${userId} online` });
  const offline = (userId: string, { timeoutMs = 5000, reader = presence } = {}) =>
    waitFor(async () => !(await reader.isOnline(userId)), { timeoutMs, intervalMs: 25, what: `${userId} offline` });

  it('a member is online while a socket is connected, and offline once it disconnects', async () => {
    const ada = await issueSession(sessions, JWT_SECRET);
    expect(await presence.isOnline(ada.userId)).toBe(false);
    const s = await socket(gateway.url, ada.token);
    await online(ada.userId);
    s.disconnect();
    await offline(ada.userId);
    expect(await redis.exists(presenceUserKey(ns.prefix, ada.userId))).toBe(0);
  });

  it('stays online while one of two sockets is left, across instances', async () => {
    const ada = await issueSession(sessions, JWT_SECRET);
    const otherDevice = await issueSession(sessions, JWT_SECRET, ada.userId);
    const first = await socket(gateway.url, ada.token);
    const onSecond = await socket(second.url, otherDevice.token);
    await online(ada.userId);
    first.disconnect();
    // The first socket's removal has reached Redis once its field is gone; the member is still online.
    await waitFor(async () => (await redis.hlen(presenceUserKey(ns.prefix, ada.userId))) === 1, { what: 'the first socket removed' });
    expect(await presence.isOnline(ada.userId)).toBe(true);
    onSecond.disconnect();
    await offline(ada.userId);
  });

  it('onlineOf answers for many members in one call, the offline ones left out', async () => {
    const [ada, bob, cyd] = await Promise.all([1, 2, 3].map(() => issueSession(sessions, JWT_SECRET)));
    await socket(gateway.url, ada.token);
    await socket(second.url, cyd.token);
    await waitFor(async () => (await presence.onlineOf([ada.userId, cyd.userId])).size === 2, { what: 'both online' });
    expect(await presence.onlineOf([ada.userId, bob.userId, cyd.userId, ada.userId])).toEqual(new Set([ada.userId, cyd.userId]));
    expect(await presence.onlineOf([])).toEqual(new Set());
  });

  it("another deployment's prefix never sees these sockets", async () => {
    const ada = await issueSession(sessions, JWT_SECRET);
    await socket(gateway.url, ada.token);
    await online(ada.userId);
    const elsewhere = new PresenceReader(redis, `${ns.prefix}-other`);
    expect(await elsewhere.isOnline(ada.userId)).toBe(false);
    expect(await elsewhere.onlineOf([ada.userId])).toEqual(new Set());
  });

  it('records every local socket again when Redis lost its entries (restart, flush)', async () => {
    const ada = await issueSession(sessions, JWT_SECRET);
    await socket(gateway.url, ada.token);
    await online(ada.userId);
    const recorder = gateway.app.get(RealtimeServer).presence;
    await redis.del(presenceInstanceKey(ns.prefix, recorder.instanceId), presenceUserKey(ns.prefix, ada.userId));
    expect(await presence.isOnline(ada.userId)).toBe(false);
    await recorder.heartbeat();
    expect(await presence.isOnline(ada.userId)).toBe(true);
  });

  it('a gateway whose heartbeat stops, nothing cleaned up, stops counting once its key expires', async () => {
    const ada = await issueSession(sessions, JWT_SECRET);
    const frozen = await startService((e) => presenceGatewayModule(e, SHORT_TTL_MS), common(), (env) => gatewayHttp(env as GatewayEnv), { migrate: false });
    try {
      await socket(frozen.url, ada.token);
      await online(ada.userId);
      // As if the process had frozen: no heartbeat, nothing removed, the socket still open.
      frozen.app.get(RealtimeServer).presence.abandon();
      const stopped = Date.now();
      expect(await presence.isOnline(ada.userId)).toBe(true);
      await offline(ada.userId, { timeoutMs: SHORT_TTL_MS + 3000 });
      expect(Date.now() - stopped).toBeLessThanOrEqual(SHORT_TTL_MS + 500);
    } finally {
      await frozen.close();
    }
  });

  it("keeps refreshing a connected member's hash before it expires, and drops it once the member leaves", async () => {
    const HASH_TTL_MS = 900;
    const ada = await issueSession(sessions, JWT_SECRET);
    const quick = await startService((e) => presenceGatewayModule(e, 600, HASH_TTL_MS), common(), (env) => gatewayHttp(env as GatewayEnv), { migrate: false });
    try {
      const s = await socket(quick.url, ada.token);
      await online(ada.userId);
      const key = presenceUserKey(ns.prefix, ada.userId);
      // Three hash TTLs later the member is still recorded, its expiry refreshed by the heartbeats.
      const until = Date.now() + 3 * HASH_TTL_MS;
      await waitFor(async () => Date.now() > until || !(await redis.exists(key)), { what: 'three hash TTLs', timeoutMs: 5000 });
      expect(await redis.pttl(key)).toBeGreaterThan(0);
      expect(await presence.isOnline(ada.userId)).toBe(true);
      s.disconnect();
      await offline(ada.userId);
    } finally {
      await quick.close();
    }
  });

  describe('a killed gateway process', () => {
    let killed: ServiceProcess;

    beforeAll(async () => {
      killed = await startServiceProcess(PRESENCE_MAIN, await freePort(), { ...common(), LOG_LEVEL: 'warn', PRESENCE_TEST_TTL_MS: String(SHORT_TTL_MS) });
    }, 60_000);

    afterAll(async () => {
      await killed?.stop();
    });

    it("stops counting within the TTL, while the member's socket on a live gateway still counts", async () => {
      const ada = await issueSession(sessions, JWT_SECRET);
      const bob = await issueSession(sessions, JWT_SECRET);
      const adaOtherDevice = await issueSession(sessions, JWT_SECRET, ada.userId);
      const adaOnKilled = await socket(killed.url, ada.token);
      await socket(killed.url, bob.token);
      await socket(gateway.url, adaOtherDevice.token);
      await waitFor(async () => (await presence.onlineOf([ada.userId, bob.userId])).size === 2, { what: 'both online' });
      const gone = new Promise<void>((resolve) => adaOnKilled.once('disconnect', () => resolve()));
      process.kill(killed.pid, 'SIGKILL');
      await gone;
      const killedAt = Date.now();
      // Nothing was cleaned up: Bob still counts until the dead instance's key expires.
      expect(await redis.hlen(presenceUserKey(ns.prefix, bob.userId))).toBe(1);
      await offline(bob.userId, { timeoutMs: SHORT_TTL_MS + 3000 });
      expect(Date.now() - killedAt).toBeLessThanOrEqual(SHORT_TTL_MS + 500);
      expect(await presence.isOnline(ada.userId)).toBe(true);
    });
  });

  it("a gateway's clean shutdown removes its sockets at once", async () => {
    const ada = await issueSession(sessions, JWT_SECRET);
    const closing = await startService((e) => presenceGatewayModule(e, 60_000), common(), (env) => gatewayHttp(env as GatewayEnv), { migrate: false });
    try {
      await socket(closing.url, ada.token);
      await online(ada.userId);
      const instanceId = closing.app.get(RealtimeServer).presence.instanceId;
      await closing.close();
      expect(await presence.isOnline(ada.userId)).toBe(false);
      expect(await redis.exists(presenceInstanceKey(ns.prefix, instanceId), presenceUserKey(ns.prefix, ada.userId))).toBe(0);
    } finally {
      await closing.close().catch(() => undefined);
    }
  });
});

import Redis from 'ioredis';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@mate/contracts';
import { PresenceReader, SessionStore } from '@mate/server-kit';
import { issueSession, startService, waitFor, type RunningService } from '@mate/server-kit/testing';
import { startOwnRedisServer, type OwnRedisServer } from '@mate/testing';
import { AppModule } from '../../app.module';
import type { GatewayEnv } from '../../gateway.env';
import { gatewayHttp } from '../../gateway.http';
import { RealtimeServer } from '../realtime.server';

const JWT_SECRET = 'realtime-outage-secret-0123456789abcdef';

/** Starting and restarting a redis-server, and closing over reconnecting connections, take longer than Jest's 5 s default on a busy machine. */
const OUTAGE_TIMEOUT_MS = 30_000;

type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Services push to members through Redis. While Redis is away those pushes fail, but a member's
 * socket to the gateway stays up and never learns of them: when Redis answers again the gateway
 * tells its sockets to resynchronise (`sync_required`), and the chat client asks for what it missed.
 */
describe('gateway realtime across a Redis restart', () => {
  let redis: OwnRedisServer;
  let gateway: RunningService;
  let client: Redis;
  let socket: MemberSocket | null = null;

  beforeAll(async () => {
    redis = await startOwnRedisServer();
    gateway = await startService(
      (e) => AppModule.forRoot(e),
      { REDIS_URL: redis.url, KEY_PREFIX: 'outage', JWT_SECRET, LOG_LEVEL: 'silent', WORKERS: 'off', OUTBOX_RELAY: 'off' },
      (env) => gatewayHttp(env as GatewayEnv),
      { migrate: false },
    );
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
  }, OUTAGE_TIMEOUT_MS);

  afterAll(async () => {
    socket?.disconnect();
    // Running again (a failed test may have left it stopped), so the connections close cleanly.
    await redis?.start();
    await gateway?.close();
    client?.disconnect();
    await redis?.stop();
  }, OUTAGE_TIMEOUT_MS);

  it('tells a socket that stayed connected through the outage to resynchronise once Redis is back', async () => {
    const session = await issueSession(new SessionStore(client, 'outage'), JWT_SECRET);
    const s: MemberSocket = connect(gateway.url, { path: SOCKET_PATH, auth: { token: session.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    socket = s;
    await new Promise<void>((resolve, reject) => {
      s.once('connected', () => resolve());
      s.once('connect_error', reject);
    });
    let told = 0;
    s.on('sync_required', () => told++);
    const resync = new Promise<void>((resolve) => s.once('sync_required', () => resolve()));

    await redis.kill();
    await redis.start();
    await resync;

    expect(s.connected).toBe(true);
    expect(told).toBe(1);
  }, OUTAGE_TIMEOUT_MS);

  it("a socket that closes while Redis is down stops counting as online once Redis is back; the others still count", async () => {
    const presence = new PresenceReader(client, 'outage');
    const open = async (token: string) => {
      const s: MemberSocket = connect(gateway.url, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
      await new Promise<void>((resolve, reject) => {
        s.once('connected', () => resolve());
        s.once('connect_error', reject);
      });
      return s;
    };
    const store = new SessionStore(client, 'outage');
    const [ada, bob] = [await issueSession(store, JWT_SECRET), await issueSession(store, JWT_SECRET)];
    const adaSocket = await open(ada.token);
    const bobSocket = await open(bob.token);
    try {
      await waitFor(async () => (await presence.onlineOf([ada.userId, bob.userId])).size === 2, { what: 'both online' });
      await redis.kill();
      adaSocket.disconnect();
      const recorder = gateway.app.get(RealtimeServer).presence;
      // The removal fails (its retries run out while Redis is away) and waits for the heartbeat.
      await waitFor(async () => recorder.pendingRemovals === 1, { what: 'the removal to fail' });
      await redis.start();
      await waitFor(async () => !(await presence.isOnline(ada.userId)), { what: 'Ada offline' });
      expect(recorder.pendingRemovals).toBe(0);
      expect(await presence.isOnline(bob.userId)).toBe(true);
    } finally {
      adaSocket.disconnect();
      bobSocket.disconnect();
    }
  }, OUTAGE_TIMEOUT_MS);
});

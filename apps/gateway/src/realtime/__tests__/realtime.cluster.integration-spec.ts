import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JwtService } from '@nestjs/jwt';
import pino from 'pino';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { randomUUID } from 'node:crypto';
import { SOCKET_PATH, userRoom, type ClientToServerEvents, type ServerToClientEvents } from '@mate/contracts';
import { createRedis, loadEnv, PresenceReader, RealtimeEmitter, SessionStore, type RedisClient } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { startRedisCluster, type OwnRedisCluster } from '@mate/testing';
import { GatewayEnv } from '../../gateway.env';
import { RealtimeServer } from '../realtime.server';

const JWT_SECRET = 'realtime-cluster-secret-0123456789';

type MemberSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

interface Replica {
  realtime: RealtimeServer;
  http: HttpServer;
  redis: RedisClient;
  url: string;
}

/**
 * Two gateway realtime servers (in this process) on a real Redis Cluster of the test's own (ADR
 * 0032): a member's socket on one, a room emit from the other and a service's push (the streams
 * adapter's stream), the socket's presence for services, and a revocation announced on pub/sub.
 */
describe('gateway realtime on a Redis Cluster', () => {
  jest.setTimeout(60_000);

  let cluster: OwnRedisCluster;
  let env: GatewayEnv;
  let a: Replica;
  let b: Replica;
  let services: RedisClient;
  const sockets: MemberSocket[] = [];
  const prefix = `gw${process.pid}`;

  async function replica(): Promise<Replica> {
    const redis = createRedis(env);
    const realtime = new RealtimeServer(env, redis, new SessionStore(redis, prefix), pino({ level: 'silent' }));
    const http = createServer();
    realtime.attach(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    await realtime.onApplicationBootstrap();
    return { realtime, http, redis, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
  }

  async function stop(r: Replica | undefined) {
    if (!r) return;
    await r.realtime.close();
    await new Promise((resolve) => r.http.close(resolve));
    r.redis.disconnect();
  }

  beforeAll(async () => {
    cluster = await startRedisCluster();
    env = loadEnv(GatewayEnv, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: cluster.seeds,
      KEY_PREFIX: prefix,
      JWT_SECRET,
    });
    [a, b] = await Promise.all([replica(), replica()]);
    services = createRedis(env);
  }, 60_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stop(a);
    await stop(b);
    services?.disconnect();
    await cluster?.stop();
  });

  async function member() {
    const userId = randomUUID();
    const sessionId = randomUUID();
    await new SessionStore(services, prefix).create(sessionId, userId, 'member', true);
    const token = new JwtService({ secret: JWT_SECRET }).sign({ sub: userId, sid: sessionId, role: 'member' }, { algorithm: 'HS256', expiresIn: '1h' });
    return { userId, sessionId, token };
  }

  async function connected(url: string, token: string): Promise<MemberSocket> {
    const socket: MemberSocket = connect(url, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connected', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  const next = (socket: MemberSocket, event: 'sync_required' | 'session_revoked') =>
    new Promise<unknown>((resolve) => (socket as unknown as { once(e: string, l: (p: unknown) => void): void }).once(event, resolve));

  it("carries a room emit of one server, and a service's push, to a socket on the other (the streams adapter)", async () => {
    const ann = await member();
    const socket = await connected(a.url, ann.token);
    const fromB = next(socket, 'sync_required');
    b.realtime.server.to(userRoom(ann.userId)).emit('sync_required');
    await fromB;
    const pushed = next(socket, 'sync_required');
    await new RealtimeEmitter(services, prefix).toUser(ann.userId).emit('sync_required');
    await pushed;
  });

  it("records the socket's presence for services, and closes it on a revocation announced to every replica", async () => {
    const bob = await member();
    const reader = new PresenceReader(services, prefix);
    const socket = await connected(b.url, bob.token);
    await waitFor(() => reader.isOnline(bob.userId), { what: 'bob online' });
    const revoked = next(socket, 'session_revoked');
    await new SessionStore(services, prefix).revoke(bob.sessionId, bob.userId);
    expect(await revoked).toEqual({ reason: 'revoked' });
    await waitFor(async () => !(await reader.isOnline(bob.userId)), { what: 'bob offline' });
  });
});

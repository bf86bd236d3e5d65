import Redis from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { CallErrorCode, isSocketError, ROLE_MEMBER, SOCKET_PATH, type Role } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import { issueSession, startServiceProcess, type ServiceProcess } from '@mate/server-kit/testing';
import { createTestRedisNamespace, freePort } from '@mate/testing';
import type { Pair } from './seed-setup';

/*
 * The built services as the seeder's specs ask them: each in its own process
 * (`dist/apps/<service>/main.js`, as `npm start` runs it) on a seeded installation's database, and
 * asked only through what members and admins reach, its HTTP API and (call-service) the socket
 * events through the gateway, with sessions issued the way auth-service issues them (a live
 * session in Redis, a signed bearer token). No module of a service is loaded here.
 */

const JWT_SECRET = 'seed-test-jwt-secret-0123456789';

/** A service's built entry point (relative to the workspace root). */
export const builtMain = (svc: string) => `dist/apps/${svc}/main.js`;

type UserId = `${string}-${string}-${string}-${string}-${string}`;

/** Built services sharing one Redis namespace and JWT secret, and the sessions that reach them. */
export class ServiceRun {
  private readonly processes: ServiceProcess[] = [];
  private readonly tokens = new Map<string, string>();

  private constructor(
    private readonly ns: Awaited<ReturnType<typeof createTestRedisNamespace>>,
    private readonly redis: Redis,
    private readonly sessions: SessionStore,
  ) {}

  static async open(label: string): Promise<ServiceRun> {
    const ns = await createTestRedisNamespace(label);
    const redis = new Redis(ns.url);
    return new ServiceRun(ns, redis, new SessionStore(redis, ns.prefix));
  }

  /** The built service in its own process on a free port, once it answers `health`. */
  async start(svc: string, env: Record<string, string>, health: '/health/live' | '/health/ready' = '/health/ready'): Promise<ServiceProcess> {
    const service = await startServiceProcess(
      builtMain(svc),
      await freePort(),
      { NODE_ENV: 'test', REDIS_URL: this.ns.url, KEY_PREFIX: this.ns.prefix, JWT_SECRET, LOG_LEVEL: 'warn', ...env },
      { health },
    );
    this.processes.push(service);
    return service;
  }

  /** A bearer token of a live session of the member (or admin) `userId`, one per member and role. */
  async token(userId: string, role: Role = ROLE_MEMBER): Promise<string> {
    const key = `${role}:${userId}`;
    let token = this.tokens.get(key);
    if (!token) {
      token = (await issueSession(this.sessions, JWT_SECRET, userId as UserId, role)).token;
      this.tokens.set(key, token);
    }
    return token;
  }

  /** An HTTP request to `service` as `userId` (role `role`). */
  async request(
    service: ServiceProcess,
    userId: string,
    method: string,
    path: string,
    { json, form, role }: { json?: unknown; form?: FormData; role?: Role } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.token(userId, role)}` };
    if (json !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${service.url}${path}`, { method, headers, body: json !== undefined ? JSON.stringify(json) : form });
  }

  /** Stops the processes (last started first) and removes the namespace's keys. */
  async close(): Promise<void> {
    try {
      for (const service of this.processes.splice(0).reverse()) await service.stop();
    } finally {
      this.redis.disconnect();
      await this.ns.cleanup();
    }
  }
}

/**
 * call-service on an installation's call database behind the gateway, both built and in their own
 * processes: whether a pair may call is what call-service answers a member's `call:initiate`.
 */
export class CallService {
  private readonly sockets = new Map<string, Socket>();

  private constructor(
    private readonly run: ServiceRun,
    private readonly gatewayUrl: string,
  ) {}

  static async start(p: Pair): Promise<CallService> {
    const run = await ServiceRun.open('seed_call');
    try {
      const calls = await run.start('call-service', { DATABASE_URL: p.call.url });
      const gateway = await run.start('gateway', { CALL_SERVICE_URL: calls.url, WORKERS: 'off', OUTBOX_RELAY: 'off' }, '/health/live');
      return new CallService(run, gateway.url);
    } catch (e) {
      await run.close();
      throw e;
    }
  }

  /**
   * Whether call-service lets `x` call `y`: `x` (signed in, on a socket through the gateway) calls
   * `y` as the app does. It rings (then `x` hangs up, so neither is left in a call): true; refused
   * as not matched (CALL_NOT_MATCHED, nothing recorded): false. Any other answer fails.
   */
  async callable(x: string, y: string): Promise<boolean> {
    const socket = await this.socketOf(x);
    const answer = await emit(socket, 'call:initiate', { to: y });
    if (isSocketError(answer)) {
      if (answer.code === CallErrorCode.NotMatched) return false;
      throw new Error(`call:initiate from ${x} to ${y} answered ${JSON.stringify(answer)}`);
    }
    if (typeof (answer as { callId?: unknown }).callId !== 'string') {
      throw new Error(`call:initiate from ${x} to ${y} answered ${JSON.stringify(answer)}`);
    }
    const ended = await emit(socket, 'call:end', { to: y });
    if (isSocketError(ended)) throw new Error(`call:end from ${x} to ${y} answered ${JSON.stringify(ended)}`);
    return true;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets.values()) socket.disconnect();
    this.sockets.clear();
    await this.run.close();
  }

  /** The member's socket through the gateway, connected (the server's `connected` arrived). */
  private async socketOf(userId: string): Promise<Socket> {
    const open = this.sockets.get(userId);
    if (open) return open;
    const socket = io(this.gatewayUrl, {
      path: SOCKET_PATH,
      auth: { token: await this.run.token(userId) },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    this.sockets.set(userId, socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connected', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }
}

/** Emits a client event and resolves with its acknowledgement (a result or `{ error, code }`). */
const emit = (socket: Socket, event: string, payload: unknown): Promise<unknown> => socket.timeout(15_000).emitWithAck(event, payload);

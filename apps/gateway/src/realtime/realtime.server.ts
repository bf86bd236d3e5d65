import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Inject, Injectable, Optional, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Logger } from 'pino';
import { Server, Socket } from 'socket.io';
import {
  ErrorCode,
  SERVICES,
  SOCKET_EVENT_OWNERS,
  SOCKET_PATH,
  SocketMessages,
  sessionRoom,
  userRoom,
  type ClientEventName,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type AuthPrincipal,
  type SessionEndReason,
} from '@mate/contracts';
import {
  createRedisConnection,
  duplicateConnection,
  LOGGER,
  REALTIME_STREAM_MAX_LEN,
  REDIS,
  SessionStore,
  realtimeChannelPrefix,
  realtimeSessionKeyPrefix,
  realtimeStreamName,
  sessionRevokedChannel,
  socketConnections,
  type RedisClient,
} from '@mate/server-kit';
import { GatewayEnv } from '../gateway.env';
import { serviceUrls } from '../proxy/routes';
import { EventRouter } from './event-router';
import { DEFAULT_PRESENCE_SETTINGS, PRESENCE_SETTINGS, PresenceRecorder, type PresenceSettings } from './presence';
import { createSocketAuthenticator, HandshakeRefused, type SocketAuthenticator, type SocketIdentity } from './socket-auth';
import { createEventChecks, createHandshakeLimiter, type TrustProxy } from './socket-limits';

type RealtimeIo = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, AuthPrincipal>;
type MemberSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, AuthPrincipal>;

/**
 * How long the adapter's stream reader blocks per XREAD. Short, because a closing replica's
 * reader only stops when its current XREAD returns; delivery itself is not delayed by it.
 */
const STREAM_BLOCK_MS = 1000;
/**
 * How long a closing adapter connection may take before its socket is destroyed. A reader blocked
 * in XREAD does not see its close until the block ends; ioredis would keep a 2 s timer for it.
 */
const ADAPTER_DISCONNECT_TIMEOUT_MS = 100;
/**
 * Packets the server may hold for one socket that is not reading them (its transport is still
 * busy with earlier ones). A client that stops reading, slow or hostile, would otherwise make the
 * gateway keep every push for it in memory until the ping timeout (45 s); a healthy one drains
 * far below this.
 */
const MAX_QUEUED_PACKETS = 1000;
/** The client events a socket may send, each routed to its owning service. */
const CLIENT_EVENTS = Object.keys(SOCKET_EVENT_OWNERS) as ClientEventName[];

/**
 * The socket.io server of the gateway (ARCHITECTURE §3, docs/adr/0005-realtime.md), on the
 * gateway's own HTTP server at `/socket.io`:
 * - a handshake needs a bearer token and a live session; the socket joins `user:<id>` and
 *   `session:<sid>`; browsers' origins must be one of the apps' (`CORS_ORIGINS`);
 * - replicas share one Redis stream (`@socket.io/redis-streams-adapter`), which services push
 *   into with `RealtimeEmitter` and which keeps connection state recovery working across them;
 * - a revoked session's sockets are closed at once on every replica (the `SessionStore`
 *   announces it on pub/sub), with a periodic liveness re-check for announcements lost in transit;
 * - client events pass the per-socket limits and are routed to their owning service, and answered
 *   through the acknowledgement;
 * - each socket is recorded in Redis (`PresenceRecorder`) so services can ask whether a member is
 *   online (`PresenceReader`).
 */
@Injectable()
export class RealtimeServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private io: RealtimeIo | null = null;
  private subscriber: RedisClient | null = null;
  /** The adapter's connections: its publisher and the readers it duplicates from it. */
  private adapterConnections: RedisClient[] = [];
  private subscribed: Promise<unknown> = Promise.resolve();
  private recheckTimer: NodeJS.Timeout | null = null;
  private router: EventRouter | null = null;
  private presenceRecorder: PresenceRecorder | null = null;
  private readonly connected = socketConnections();
  /** Each socket's bearer token, in memory only (never in `socket.data`, which recovery persists). */
  private readonly tokens = new WeakMap<object, string>();

  constructor(
    @Inject(GatewayEnv) private readonly env: GatewayEnv,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly sessions: SessionStore,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(PRESENCE_SETTINGS) private readonly presenceSettings: PresenceSettings = DEFAULT_PRESENCE_SETTINGS,
  ) {}

  /** The server, once attached (tests look at its sockets). */
  get server(): RealtimeIo {
    if (!this.io) throw new Error('The realtime server is not attached');
    return this.io;
  }

  /** This instance's presence records, once attached (tests look at it). */
  get presence(): PresenceRecorder {
    if (!this.presenceRecorder) throw new Error('The realtime server is not attached');
    return this.presenceRecorder;
  }

  /** `trustProxy`: Express's compiled TRUST_PROXY, to find a handshake's client address. */
  attach(httpServer: HttpServer, trustProxy: TrustProxy = () => false): void {
    const { env } = this;
    const origins = new Set(env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean));
    const io: RealtimeIo = new Server(httpServer, {
      path: SOCKET_PATH,
      serveClient: false,
      maxHttpBufferSize: env.SOCKET_MAX_PAYLOAD_BYTES,
      cors: { origin: [...origins], credentials: false },
      allowRequest: (req, answer) =>
        this.originAllowed(req, origins) ? answer(null, true) : answer(SocketMessages.originNotAllowed, false),
      connectionStateRecovery: { maxDisconnectionDuration: env.SOCKET_RECOVERY_WINDOW_MS, skipMiddlewares: false },
      adapter: createAdapter(this.adapterClient(), {
        streamName: realtimeStreamName(env.KEY_PREFIX),
        channelPrefix: realtimeChannelPrefix(env.KEY_PREFIX),
        sessionKeyPrefix: realtimeSessionKeyPrefix(env.KEY_PREFIX),
        maxLen: REALTIME_STREAM_MAX_LEN,
        blockTimeInMs: STREAM_BLOCK_MS,
        onlyPlaintext: true,
      }),
    });
    this.io = io;
    const presence = new PresenceRecorder(this.redis, env.KEY_PREFIX, this.presenceSettings ?? DEFAULT_PRESENCE_SETTINGS, this.logger);
    this.presenceRecorder = presence;

    const authenticate = createSocketAuthenticator(env.JWT_SECRET, this.sessions);
    this.restoreOnlyForItsSession(io, authenticate);
    const countHandshake = createHandshakeLimiter(this.redis, env.KEY_PREFIX, env.RATE_LIMIT_PER_MINUTE, trustProxy, this.logger);
    io.use((socket, next) => {
      countHandshake(socket.request)
        .then(() => authenticate(socket))
        .then(
          ({ principal, token }: SocketIdentity) => {
            // Counted and joined in the same tick, so a burst of handshakes cannot all pass the cap
            // (a socket that never connects leaves its rooms again).
            const rooms = io.of('/').adapter.rooms;
            const own = rooms.get(userRoom(principal.userId));
            const open = (own?.size ?? 0) - (own?.has(socket.id) ? 1 : 0);
            if (open >= env.SOCKET_MAX_PER_USER) return next(new HandshakeRefused(SocketMessages.tooManyConnections, ErrorCode.RateLimited));
            void socket.join([userRoom(principal.userId), sessionRoom(principal.sessionId)]);
            socket.data = principal;
            this.tokens.set(socket, token);
            next();
          },
          (err: unknown) => {
            if (!(err instanceof HandshakeRefused)) this.logger.error({ err }, 'socket handshake failed');
            next(err instanceof HandshakeRefused ? err : new HandshakeRefused(SocketMessages.serviceUnavailable, ErrorCode.ServiceUnavailable));
          },
        );
    });

    const router = new EventRouter({
      serviceUrls: serviceUrls(env),
      internalToken: env.INTERNAL_TOKEN,
      timeoutMs: env.SOCKET_ACK_TIMEOUT_MS,
      logger: this.logger,
      requestsInFlight: env.SOCKET_EVENT_REQUESTS_IN_FLIGHT,
      batchMax: env.SOCKET_EVENT_BATCH_MAX,
    });
    this.router = router;
    const checks = createEventChecks(env.SOCKET_EVENTS_PER_10_SECONDS, (socket) => {
      this.logger.warn({ userId: socket.data.userId, socketId: socket.id }, 'socket disconnected for flooding events');
      socket.disconnect(true);
    });

    io.on('connection', (socket: MemberSocket) => {
      const { userId, sessionId } = socket.data;
      this.connected.inc({ service: SERVICES.gateway });
      presence.added(userId, socket.id);
      this.logger.info({ userId, sessionId, socketId: socket.id, recovered: socket.recovered }, 'socket connected');
      socket.emit('connected', { userId });

      socket.conn.on('packetCreate', () => {
        // engine.io's queue of packets the transport has not taken yet (private in its typings).
        const queued = (socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length;
        if (queued < MAX_QUEUED_PACKETS) return;
        this.logger.warn({ userId, socketId: socket.id, queued }, 'socket closed for not reading its pushes');
        // Discards the queue: a plain close would wait for it to drain, which it never does.
        socket.conn.close(true);
      });
      // The checks of this socket, made once: its every event passes through them.
      const check = checks(socket as unknown as Socket);
      socket.use((packet, next) => {
        check(packet as [string, ...unknown[]], next).catch((err: unknown) => {
          this.logger.error({ err, socketId: socket.id }, 'socket event check failed');
        });
      });
      // Events of this socket waiting for their service: over the limit, one is refused at once
      // rather than piling more requests on a slow service (each waits up to SOCKET_ACK_TIMEOUT_MS).
      let inFlight = 0;
      for (const event of CLIENT_EVENTS) {
        (socket as unknown as Socket).on(event, (payload: unknown, ack?: (answer: unknown) => void) => {
          if (inFlight >= env.SOCKET_MAX_EVENTS_IN_FLIGHT) return ack?.({ error: SocketMessages.tooManyPending, code: ErrorCode.RateLimited });
          inFlight++;
          const sender = { principal: socket.data, token: this.tokens.get(socket) ?? '' };
          void router
            .route(event, payload, sender)
            .then((answer) => ack?.(answer))
            .finally(() => inFlight--);
        });
      }
      socket.on('disconnect', (reason) => {
        this.connected.dec({ service: SERVICES.gateway });
        presence.removed(userId, socket.id);
        this.logger.info({ userId, sessionId, socketId: socket.id, reason }, 'socket disconnected');
      });
    });

    this.subscriber = duplicateConnection(this.redis);
    this.subscriber.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'session revocation subscriber error'));
    // While Redis was away, services' pushes to these sockets failed although the sockets stayed
    // connected: once it answers again, every local socket is told to ask for what it missed.
    let redisLost = false;
    this.subscriber.on('close', () => {
      if (this.io) redisLost = true;
    });
    this.subscriber.on('ready', () => {
      if (!redisLost || !this.io) return;
      redisLost = false;
      this.logger.warn({ sockets: this.io.of('/').sockets.size }, 'Redis is back: sockets told to resynchronise');
      this.io.local.emit('sync_required');
    });
    this.subscriber.on('message', (_channel: string, sessionId: string) => this.endSession(sessionId, 'revoked'));
    this.subscribed = this.subscriber.subscribe(sessionRevokedChannel(env.KEY_PREFIX));
    this.recheckTimer = setInterval(() => {
      this.recheckSessions().catch((err: unknown) => this.logger.warn({ err }, 'socket session re-check failed'));
    }, env.SOCKET_SESSION_RECHECK_MS);
    this.recheckTimer.unref();
  }

  /**
   * socket.io restores a returning socket (its rooms, `data` and the packets it missed, which it
   * sends at once) when it creates it, before any middleware runs: a session revoked while its
   * socket was away would still be sent what was pushed meanwhile, and a token of another session
   * would inherit the stored session's rooms. So the main namespace restores a recovery session
   * only for a handshake whose token is live for the very session stored; any other handshake
   * starts a fresh socket, which the middleware then judges like a new one. (Replaces socket.io's
   * `Namespace._createSocket`, of socket.io 4.8: the two realtime tests fail if it changes.)
   */
  private restoreOnlyForItsSession(io: RealtimeIo, authenticate: SocketAuthenticator): void {
    type CreateSocket = (client: { request: IncomingMessage }, auth: Record<string, unknown>) => Promise<Socket>;
    const nsp = io.of('/');
    const create: CreateSocket = async (client, auth) => {
      const { pid, offset } = auth;
      if (typeof pid !== 'string' || typeof offset !== 'string') return new Socket(nsp, client as never, auth);
      const query = Object.fromEntries(new URL(client.request.url ?? '/', 'http://gateway').searchParams);
      const [identity, session] = await Promise.all([
        authenticate({ handshake: { auth, query } } as never).catch(() => null),
        nsp.adapter.restoreSession(pid, offset).catch(() => null),
      ]);
      const stored = session?.data as Partial<AuthPrincipal> | undefined;
      const same = identity && stored && stored.sessionId === identity.principal.sessionId && stored.userId === identity.principal.userId;
      return same && session ? new Socket(nsp, client as never, auth, session) : new Socket(nsp, client as never, auth);
    };
    (nsp as unknown as { _createSocket: CreateSocket })._createSocket = create;
  }

  /**
   * A connection for the adapter whose duplicates (the stream reader, the pub/sub listener) are
   * remembered, so shutdown closes them at once instead of after their blocking read returns.
   */
  private adapterClient(): RedisClient {
    const open = () => createRedisConnection(this.env, 'adapter', { disconnectTimeout: ADAPTER_DISCONNECT_TIMEOUT_MS });
    const client = open();
    // The adapter calls duplicate() without arguments (a server's and a cluster's take different ones):
    // each copy is a new connection of the same kind.
    client.duplicate = (() => {
      const copy = open();
      this.adapterConnections.push(copy);
      return copy;
    }) as RedisClient['duplicate'];
    this.adapterConnections.push(client);
    return client;
  }

  /**
   * Start-up waits for the revocation subscription (no socket may outlive a revocation sent before
   * it) and for the presence liveness key (sockets count from the first one).
   */
  async onApplicationBootstrap() {
    await Promise.all([this.subscribed, this.presenceRecorder?.start()]);
  }

  async beforeApplicationShutdown() {
    await this.close();
  }

  async close(): Promise<void> {
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
    const io = this.io;
    this.io = null;
    // Before the sockets close: this instance's sockets stop counting at once, in one pipeline.
    await this.presenceRecorder?.close();
    // Closes every socket first, so the HTTP server's close does not wait for them.
    if (io) {
      io.local.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    }
    this.router?.close();
    this.router = null;
    await this.subscriber?.quit().catch(() => undefined);
    this.subscriber = null;
    for (const connection of this.adapterConnections.splice(0)) connection.disconnect();
  }

  /** Tells this replica's sockets of the session why, then closes them. */
  endSession(sessionId: string, reason: SessionEndReason): void {
    if (!this.io) return;
    const sockets = this.io.local.in(sessionRoom(sessionId));
    sockets.emit('session_revoked', { reason });
    sockets.disconnectSockets(true);
  }

  /**
   * The safety net for a lost revocation announcement (pub/sub has no delivery guarantee): every
   * SOCKET_SESSION_RECHECK_MS the sessions of this replica's sockets are looked up, without
   * sliding them, and the ended ones are closed.
   */
  async recheckSessions(): Promise<void> {
    if (!this.io) return;
    const sessions = new Map<string, string>();
    for (const socket of this.io.of('/').sockets.values()) {
      if (socket.data.sessionId) sessions.set(socket.data.sessionId, socket.data.userId);
    }
    if (sessions.size === 0) return;
    const alive = await this.sessions.lastActivity([...sessions].map(([sessionId, userId]) => ({ sessionId, userId })));
    for (const sessionId of sessions.keys()) if (!alive.has(sessionId)) this.endSession(sessionId, 'expired');
  }

  /**
   * Browsers always send Origin on a WebSocket or cross-origin request: it must be one of the
   * apps', or the gateway's own. A request without one comes from a same-origin poll or a
   * non-browser client, which cannot ride on a member's browser credentials.
   */
  private originAllowed(req: IncomingMessage, origins: Set<string>): boolean {
    const origin = req.headers.origin;
    if (!origin) return true;
    if (origins.has(origin)) return true;
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }
}

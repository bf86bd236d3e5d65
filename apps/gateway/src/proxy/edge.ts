import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import {
  AuthMessages,
  EdgeMessages,
  ErrorCode,
  REQUEST_ID_HEADER,
  ROLE_ADMIN,
  type ApiErrorBody,
  type ServiceName,
} from '@mate/contracts';
import { rateLimitAddress, setMetricsRoute, type LiveSession, type SessionStore, type WindowCount } from '@mate/server-kit';
import { uploadDeadlineMs, type GatewayEnv } from '../gateway.env';
import { AddressLimit } from './address-limit';
import { BearerVerifier } from './bearer';
import { BodyBuffers, bodyPending, hasBody, readBody } from './body';
import { ClientSlots, untilExchangeEnds } from './client-slots';
import { Forwarder } from './forward';
import { isDashboardRoute, isPublicRoute, isUploadRoute, matchRoute, serviceUrls } from './routes';

export interface EdgeDeps {
  env: GatewayEnv;
  sessions: SessionStore;
  logger: Logger;
}

const UNAVAILABLE = { error: EdgeMessages.unavailable, code: ErrorCode.ServiceUnavailable };
const TOO_LARGE = { error: EdgeMessages.tooLarge, code: ErrorCode.PayloadTooLarge };
const NOT_FOUND = { error: EdgeMessages.notFound, code: ErrorCode.NotFound };
const AUTH_REQUIRED = { error: AuthMessages.authRequired, code: ErrorCode.Unauthorized };
const SESSION_EXPIRED = { error: AuthMessages.sessionExpired, code: ErrorCode.SessionExpired };
const ADMIN_REQUIRED = { error: AuthMessages.adminRequired, code: ErrorCode.Forbidden };
const RATE_LIMITED = { error: AuthMessages.tooManyAttempts, code: ErrorCode.RateLimited };
const TOO_MANY_IN_FLIGHT = { error: EdgeMessages.tooManyInFlight, code: ErrorCode.RateLimited };
const BODY_TIMEOUT = { error: EdgeMessages.requestTimeout, code: ErrorCode.RequestTimeout };

/** Retry-After of a refusal over the per-address concurrency cap: slots free as answers finish. */
const CONCURRENCY_RETRY_AFTER_MS = 1000;
/** Retry-After of a body refused because the replica's buffer budget is full: bodies pass in well under a second. */
const BUFFERS_RETRY_AFTER_S = 1;
/** The per-address rate limit's window: RATE_LIMIT_PER_MINUTE requests in it. */
const RATE_LIMIT_WINDOW_S = 60;

function send(res: Response, status: number, body: Omit<ApiErrorBody, 'requestId'>, req: Request) {
  // An answer given before the body arrived ends the connection: otherwise Node would keep
  // reading a body that may never come, just to reuse the connection.
  if (bodyPending(req)) res.setHeader('Connection', 'close');
  res.status(status).json({ ...body, requestId: req.headers[REQUEST_ID_HEADER] });
}

/** The paths the edge answers (with the API docs, which are mounted before it). */
export function isEdgePath(path: string) {
  return path === '/api' || path.startsWith('/api/') || path === '/admin' || path.startsWith('/admin/');
}

/** What the one Redis call of a request answered: the address's count, and its session when it needs one. */
type EdgeCheck = { ok: true; count: WindowCount; session?: LiveSession | null } | { ok: false; error: unknown };
const failedCheck = (error: unknown): EdgeCheck => ({ ok: false, error });

export interface Edge {
  handler: RequestHandler;
  /** Closes the kept-alive connections to the services. */
  close(): void;
  /** Bytes of ordinary bodies claimed from EDGE_MAX_BUFFERED_BYTES now: the test seam, not used by the edge. */
  bufferedBytes(): number;
}

/** The express setting under which the gateway keeps its edge (the tests read `bufferedBytes` through it). */
export const EDGE_SETTING = 'mate:edge';

/**
 * Whether the client has gone: its connection closed, so no answer can reach it. Checked after
 * every wait, since the 'close' events fired during it (req.destroyed is no sign: a request is
 * destroyed once its body has been read).
 */
function clientGone(req: Request, res: Response): boolean {
  return res.destroyed || res.closed || req.socket.destroyed;
}

/**
 * The edge. What a request is answered, in order of precedence: 429 over the per-address rate
 * limit or over the per-address cap on requests in flight (an address is an IPv6 client's /64),
 * 413 over the body-size limit, JSON 404 for unknown API paths, 401 without a valid bearer token
 * and live session, 403 for non-admins on admin prefixes; then an ordinary body is read whole
 * (503 when the replica's EDGE_MAX_BUFFERED_BYTES are taken, 408 when it has not arrived within
 * BODY_TIMEOUT_MS of the request, 413 when a chunked one grows too large) and only then is the
 * request forwarded to the owning service with the request id and client address; an upload (a
 * POST to an upload route) streams to the service over its own connections and must arrive by a
 * deadline scaled to its length, without long pauses, and at UPLOAD_MIN_BYTES_PER_SECOND on
 * average once UPLOAD_BODY_BASE_MS have gone by (408). 503 when the service is down, slow,
 * or has no free connection within UPSTREAM_QUEUE_TIMEOUT_MS.
 *
 * Reading ordinary bodies first means a slow client never holds one of the UPSTREAM_MAX_SOCKETS
 * connections to a service (docs/adr/0002-gateway-forwarder.md, "Slow clients").
 *
 * The rate-limit count and the session check are one Redis call (one script: one command written,
 * one answer read, one round trip). The precedence above is unchanged; the only difference is that
 * the one request that crosses an address's limit also slides its session (later refusals are
 * answered from memory, before any Redis call).
 */
export function createEdge({ env, sessions, logger }: EdgeDeps): Edge {
  const bearer = new BearerVerifier(env.JWT_SECRET);
  const targets = Object.fromEntries(
    Object.entries(serviceUrls(env))
      .filter(([, url]) => url)
      .map(([service, url]) => [service, new URL(url)]),
  ) as Record<ServiceName, URL>;
  const limit = new AddressLimit(`${env.KEY_PREFIX}:rl:gateway`, env.RATE_LIMIT_PER_MINUTE, RATE_LIMIT_WINDOW_S);
  // Every forwarded request carries the deployment's internal credential: services believe its
  // X-Forwarded-For (the client address they rate-limit by) only with it (ADR 0009).
  const forwarder = new Forwarder({
    maxSockets: env.UPSTREAM_MAX_SOCKETS,
    maxUploadSockets: env.UPSTREAM_MAX_UPLOAD_SOCKETS,
    internalToken: env.INTERNAL_TOKEN,
  });
  const slots = new ClientSlots(env.MAX_CONCURRENT_PER_CLIENT);
  const buffers = new BodyBuffers(env.EDGE_MAX_BUFFERED_BYTES);

  const tooMany = (req: Request, res: Response, msBeforeNext: number, body: Omit<ApiErrorBody, 'requestId'> = RATE_LIMITED) => {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(msBeforeNext / 1000))));
    send(res, 429, body, req);
  };
  const buffersFull = (req: Request, res: Response) => {
    res.setHeader('Retry-After', String(BUFFERS_RETRY_AFTER_S));
    res.setHeader('Connection', 'close');
    send(res, 503, UNAVAILABLE, req);
  };
  const tooLarge = (req: Request, res: Response) => {
    res.setHeader('Connection', 'close');
    send(res, 413, TOO_LARGE, req);
  };
  const bodyTimedOut = (req: Request, res: Response) => {
    res.setHeader('Connection', 'close');
    send(res, 408, BODY_TIMEOUT, req);
  };

  const forward = (
    req: Request,
    res: Response,
    service: ServiceName,
    body: { upload: boolean; whole?: Buffer; onSent?: () => void; limit: number; timeoutMs: number },
  ) => {
    forwarder.forward(req, res, targets[service], {
      timeoutMs: env.UPSTREAM_TIMEOUT_MS,
      queueTimeoutMs: env.UPSTREAM_QUEUE_TIMEOUT_MS,
      upload: body.upload,
      body: body.whole,
      onBodySent: body.onSent,
      bodyLimit: body.limit,
      bodyTimeoutMs: body.timeoutMs,
      bodyIdleTimeoutMs: env.UPLOAD_IDLE_TIMEOUT_MS,
      bodyMinBytesPerSecond: env.UPLOAD_MIN_BYTES_PER_SECOND,
      bodyGraceMs: env.UPLOAD_BODY_BASE_MS,
      onTooLarge: () => tooLarge(req, res),
      onBodyTimeout: () => bodyTimedOut(req, res),
      onUnavailable: (err) => {
        logger.warn({ err: { code: (err as NodeJS.ErrnoException).code, message: err.message }, service }, 'upstream failed');
        send(res, 503, UNAVAILABLE, req);
      },
      onBroken: (err) => logger.warn({ err: { code: (err as NodeJS.ErrnoException).code, message: err.message }, service }, 'proxied exchange cut off'),
    });
  };

  const handle = async (req: Request, res: Response, path: string) => {
    const arrived = Date.now();
    const timeLeft = (deadlineMs: number) => deadlineMs - (Date.now() - arrived);
    const route = matchRoute(path);
    // Latency is labelled by the prefix that routed the request, never by the raw path.
    if (route) setMetricsRoute(res, `${route.prefix}/*`);
    if (req.method === 'OPTIONS') {
      // CORS preflights are answered by the CORS middleware before the edge. Any other OPTIONS
      // is answered here: nothing goes to a service without the checks below.
      return route ? res.status(204).end() : send(res, 404, NOT_FOUND, req);
    }

    // One budget per client: an IPv4 address, or an IPv6 client's whole /64 (it picks addresses in it at will).
    const client = rateLimitAddress(req.ip ?? 'unknown');
    const blocked = limit.blockedMs(client);
    if (blocked > 0) return tooMany(req, res, blocked);
    const release = slots.take(client);
    if (!release) return tooMany(req, res, CONCURRENCY_RETRY_AFTER_MS, TOO_MANY_IN_FLIGHT);
    untilExchangeEnds(req, res, release);

    const upload = isUploadRoute(req.method, path);
    const bodyLimit = upload ? env.UPLOAD_LIMIT_BYTES : env.BODY_LIMIT_BYTES;
    let refusal: (() => void) | null = null;
    let checked: Promise<EdgeCheck> | undefined;
    if (Number(req.headers['content-length'] ?? 0) > bodyLimit) {
      refusal = () => tooLarge(req, res);
    } else if (!route) {
      refusal = () => send(res, 404, NOT_FOUND, req);
    } else if (!isPublicRoute(req.method, path) && !isDashboardRoute(req.method, path)) {
      const claims = bearer.claims(req.headers.authorization);
      if (!claims) refusal = () => send(res, 401, AUTH_REQUIRED, req);
      else
        checked = sessions
          .touchCounting(claims.sid, claims.sub, limit.counter(client))
          .then(({ count, session }): EdgeCheck => ({ ok: true, count, session }), failedCheck);
    }
    const sessionChecked = checked !== undefined;
    // Every request counts, refused or not: the count alone when there is no session to check.
    checked ??= sessions.countInWindow(limit.counter(client)).then((count): EdgeCheck => ({ ok: true, count }), failedCheck);

    const check = await checked;
    if (check.ok) {
      const over = limit.refusalMs(client, check.count);
      if (over > 0) return tooMany(req, res, over);
    } else {
      // Redis trouble must not take the whole API down: let the request through and say so.
      logger.warn({ err: check.error }, 'rate limiter unavailable');
    }
    if (refusal || !route) return refusal?.();
    if (sessionChecked) {
      // The session is unknown when Redis failed: the request cannot go on without it.
      if (!check.ok) {
        logger.error({ err: check.error }, 'session check failed');
        return send(res, 503, UNAVAILABLE, req);
      }
      if (!check.session) return send(res, 401, SESSION_EXPIRED, req);
      if (route.admin && check.session.role !== ROLE_ADMIN) return send(res, 403, ADMIN_REQUIRED, req);
    }
    // Its exchange's 'close' has fired already: whatever were claimed for it now would never be
    // given back (a body budget), or held until a deadline (an upload connection to the service).
    if (clientGone(req, res)) return;
    if (!hasBody(req) || upload) {
      // An upload's deadline grows with its declared length (a chunked one gets the longest).
      const declared = req.headers['content-length'];
      const deadline = uploadDeadlineMs(env, declared !== undefined ? Number(declared) : bodyLimit);
      return forward(req, res, route.service, { upload, limit: bodyLimit, timeoutMs: timeLeft(deadline) });
    }
    // The whole body before a connection to the service is taken: a client that sends it slowly
    // holds only its own request, never a connection other members need. Its bytes come out of
    // the replica's buffer budget: a declared length at once, a chunked body as it arrives.
    // No wait between the check above and the 'close' listener: the lease is given back on every
    // path, by the listener, by the body's handover to the service, or at once when not read.
    const lease = buffers.lease();
    res.once('close', lease.release);
    const declared = req.headers['content-length'];
    if (declared !== undefined && !lease.reserve(Number(declared))) return buffersFull(req, res);
    const read = await readBody(req, bodyLimit, timeLeft(env.BODY_TIMEOUT_MS), declared === undefined ? lease : undefined);
    if (read.outcome !== 'complete') lease.release();
    if (read.outcome === 'timeout') return bodyTimedOut(req, res);
    if (read.outcome === 'tooLarge') return tooLarge(req, res);
    if (read.outcome === 'busy') return buffersFull(req, res);
    if (read.outcome === 'aborted' || clientGone(req, res)) return lease.release();
    forward(req, res, route.service, { upload: false, whole: read.body, onSent: lease.release, limit: bodyLimit, timeoutMs: 0 });
  };

  const edge = (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (!isEdgePath(path)) return next();
    handle(req, res, path).catch((e: unknown) => {
      logger.error({ err: e }, 'gateway edge failed');
      if (!res.headersSent) send(res, 503, UNAVAILABLE, req);
      else res.destroy();
    });
  };
  return { handler: edge, close: () => forwarder.close(), bufferedBytes: () => buffers.inUse() };
}

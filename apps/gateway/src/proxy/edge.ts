import http from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { JwtService } from '@nestjs/jwt';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import {
  AuthMessages,
  ErrorCode,
  REQUEST_ID_HEADER,
  ROLE_ADMIN,
  type ApiErrorBody,
  type JwtClaims,
  type ServiceName,
} from '@mate/contracts';
import type { SessionStore } from '@mate/server-kit';
import type { GatewayEnv } from '../gateway.env';
import { matchRoute, PUBLIC_ROUTES, serviceUrls, UPLOAD_ROUTES } from './routes';

export interface EdgeDeps {
  env: GatewayEnv;
  redis: Redis;
  sessions: SessionStore;
  logger: Logger;
}

function send(res: Response, status: number, body: Omit<ApiErrorBody, 'requestId'>, req: Request) {
  res.status(status).json({ ...body, requestId: req.headers[REQUEST_ID_HEADER] });
}

/**
 * The edge, in the order a request meets it: rate limit per address, body size, route lookup
 * (JSON 404 for unknown API paths), bearer token and live session (401), admin role on admin
 * prefixes (403), then the proxy to the owning service with the request id and client address.
 */
export function createEdge({ env, redis, sessions, logger }: EdgeDeps): RequestHandler[] {
  const jwt = new JwtService({ secret: env.JWT_SECRET });
  const targets = serviceUrls(env);
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${env.KEY_PREFIX}:rl:gateway`,
    points: env.RATE_LIMIT_PER_MINUTE,
    duration: 60,
    // Keeps a blocked address's refusals off Redis until its window ends.
    inMemoryBlockOnConsumed: env.RATE_LIMIT_PER_MINUTE,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10000 });

  const rateLimit: RequestHandler = (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    limiter
      .consume(req.ip ?? 'unknown')
      .then(() => next())
      .catch((e: unknown) => {
        if (e instanceof RateLimiterRes) {
          res.setHeader('Retry-After', String(Math.max(1, Math.ceil(e.msBeforeNext / 1000))));
          return send(res, 429, { error: AuthMessages.tooManyAttempts, code: ErrorCode.RateLimited }, req);
        }
        // Redis trouble must not take the whole API down: let the request through and say so.
        logger.warn({ err: e }, 'rate limiter unavailable');
        next();
      });
  };

  const bodyLimit: RequestHandler = (req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const limit = UPLOAD_ROUTES.some((r) => r.test(req.path)) ? env.UPLOAD_LIMIT_BYTES : env.BODY_LIMIT_BYTES;
    if (length > limit) {
      res.setHeader('Connection', 'close');
      return send(res, 413, { error: 'Request body is too large', code: ErrorCode.PayloadTooLarge }, req);
    }
    next();
  };

  const authorize: RequestHandler = (req, res, next) => {
    const route = matchRoute(req.path);
    if (!route) return send(res, 404, { error: 'Not found', code: ErrorCode.NotFound }, req);
    res.locals.service = route.service;
    if (req.method === 'OPTIONS' || PUBLIC_ROUTES.has(`${req.method} ${req.path}`)) return next();
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    let claims: JwtClaims;
    try {
      claims = jwt.verify<JwtClaims>(token, { algorithms: ['HS256'] });
    } catch {
      return send(res, 401, { error: AuthMessages.authRequired, code: ErrorCode.Unauthorized }, req);
    }
    sessions
      .touch(claims.sid, claims.sub)
      .then((live) => {
        if (!live) return send(res, 401, { error: AuthMessages.sessionExpired, code: ErrorCode.SessionExpired }, req);
        if (route.admin && live.role !== ROLE_ADMIN) {
          return send(res, 403, { error: AuthMessages.adminRequired, code: ErrorCode.Forbidden }, req);
        }
        next();
      })
      .catch((e: unknown) => {
        logger.error({ err: e }, 'session check failed');
        send(res, 503, { error: 'Service temporarily unavailable', code: ErrorCode.ServiceUnavailable }, req);
      });
  };

  const proxy = createProxyMiddleware<Request, Response>({
    router: (req) => targets[(req.res as Response).locals.service as ServiceName],
    target: env.AUTH_SERVICE_URL,
    changeOrigin: false,
    xfwd: true,
    agent,
    proxyTimeout: env.UPSTREAM_TIMEOUT_MS,
    timeout: env.UPSTREAM_TIMEOUT_MS,
    // Express strips nothing here: the middleware is mounted at the root, so the path is intact.
    on: {
      proxyReq: (proxyReq, req) => {
        proxyReq.setHeader(REQUEST_ID_HEADER, String(req.headers[REQUEST_ID_HEADER] ?? ''));
      },
      error: (err, req, res) => {
        const service = (res as Response).locals?.service;
        logger.warn({ err: { code: (err as NodeJS.ErrnoException).code, message: err.message }, service }, 'upstream failed');
        const out = res as Response;
        if ('headersSent' in out && !out.headersSent) {
          send(out, 503, { error: 'Service temporarily unavailable', code: ErrorCode.ServiceUnavailable }, req as Request);
        } else if ('destroy' in out) {
          out.destroy();
        }
      },
    },
  });

  const proxied = (req: Request, res: Response, next: NextFunction) => {
    if (!(req.path === '/api' || req.path.startsWith('/api/') || req.path === '/admin' || req.path.startsWith('/admin/'))) {
      return next();
    }
    rateLimit(req, res, () => bodyLimit(req, res, () => authorize(req, res, () => proxy(req, res, next))));
  };
  return [proxied];
}

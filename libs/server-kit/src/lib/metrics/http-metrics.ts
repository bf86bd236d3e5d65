import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { register } from 'prom-client';
import { ErrorCode, REQUEST_ID_HEADER } from '@mate/contracts';
import { httpRequestDuration } from './metrics';

/** Where every process (gateway and services) serves its metrics; not under /api, so never proxied. */
export const METRICS_PATH = '/metrics';

/** Label of requests no route took (404s, refused before routing): one series, whatever the path. */
export const UNMATCHED_ROUTE = '<unmatched>';

/**
 * Names the route of a request that no Express route answers: the gateway's edge labels what it
 * proxies by the prefix that routed it (`/api/profile/*`), found once where it routes.
 */
export function setMetricsRoute(res: Response, route: string) {
  res.locals['metricsRoute'] = route;
}

/**
 * The route template a request was answered by: what a handler set, else the Express route Nest
 * registered (`/api/profile/:userId`), never the raw path, so ids do not make a series each.
 */
export function routeTemplate(req: Request, res: Response): string {
  const chosen = res.locals['metricsRoute'];
  if (typeof chosen === 'string') return chosen;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}

/** Observes each request's latency, labelled by `routeTemplate`, when its answer is finished (or the caller went away). */
export function httpMetricsMiddleware(service: string): RequestHandler {
  const latency = httpRequestDuration();
  return (req, res, next) => {
    if (req.path === METRICS_PATH) return next();
    const started = process.hrtime.bigint();
    let observed = false;
    const observe = () => {
      if (observed) return;
      observed = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeTemplate(req, res);
      // A caller that hung up before the answer counts as 499 (nginx's "client closed request").
      const status = res.writableFinished ? String(res.statusCode) : '499';
      latency.observe({ service, method: req.method, route, status }, seconds);
    };
    res.once('finish', observe);
    res.once('close', observe);
    next();
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` in Prometheus' text format. With a token configured (METRICS_TOKEN) the scraper
 * must send it as a bearer token; see docs/adr/0007-metrics-and-openapi.md for who can reach it.
 */
export function metricsHandler(logger: Logger, token?: string): RequestHandler {
  return (req, res) => {
    if (token && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
      res.status(401).json({ error: 'Metrics token required', code: ErrorCode.Unauthorized, requestId: req.headers[REQUEST_ID_HEADER] });
      return;
    }
    register.metrics().then(
      (text) => {
        res.setHeader('Content-Type', register.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      (err: unknown) => {
        logger.warn({ err }, 'metrics collection failed');
        res.status(500).json({ error: 'Metrics unavailable', code: ErrorCode.Internal, requestId: req.headers[REQUEST_ID_HEADER] });
      },
    );
  };
}

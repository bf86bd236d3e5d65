import { createHash, timingSafeEqual } from 'node:crypto';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER } from '@mate/contracts';
import { forbidden } from '../errors/app.exception';
import { toErrorBody } from '../errors/error.filter';

/** Said to a caller of `/internal/**` without the gateway's credential. */
export const INTERNAL_ONLY_MESSAGE = 'This route is for the platform’s own services only';

/** Requests that carried the deployment's internal credential (set before any handler runs). */
const internalCallers = new WeakSet<object>();

/** True when the request came from the gateway (it carried `INTERNAL_TOKEN`). */
export function isInternalCaller(req: object): boolean {
  return internalCallers.has(req);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may say where a request came from (ADR 0009). A service is reachable by anything on its
 * network, so `X-Forwarded-*` is believed only from the gateway, which proves itself with the
 * shared `INTERNAL_TOKEN` in `INTERNAL_TOKEN_HEADER`. Any other request loses its `X-Forwarded-*`
 * and `Forwarded` headers before anything reads `req.ip`, so per-address limits count the real
 * peer, and is refused on `/internal/**`. The credential is removed from the headers either way,
 * so no handler or log line sees it.
 *
 * The gateway (`edge`) is the one place clients reach: it never accepts the credential (its own
 * `TRUST_PROXY` says which ingress to believe) and drops a client-sent one.
 */
export function internalTrustMiddleware(token: string, { edge }: { edge: boolean }): RequestHandler {
  const expected = digest(token);
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers[INTERNAL_TOKEN_HEADER];
    delete req.headers[INTERNAL_TOKEN_HEADER];
    // Hashing first makes the comparison constant-time whatever the length of what was sent.
    const trusted = !edge && typeof given === 'string' && timingSafeEqual(digest(given), expected);
    if (trusted) {
      internalCallers.add(req);
      return next();
    }
    if (!edge) {
      for (const name of Object.keys(req.headers)) {
        if (name.startsWith('x-forwarded-') || name === 'forwarded') delete req.headers[name];
      }
    }
    if (isInternalPath(req.url)) {
      const { status, body } = toErrorBody(forbidden(INTERNAL_ONLY_MESSAGE), req.headers[REQUEST_ID_HEADER] as string | undefined);
      res.status(status).json(body);
      return;
    }
    next();
  };
}

/**
 * `/internal` or below, however it is spelled: routing ignores case and a trailing slash, and a
 * client may percent-encode or double the slashes.
 */
export function isInternalPath(url: string): boolean {
  let path = url.split('?')[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    /* undecodable: routing cannot match it either; check it as sent */
  }
  return /^\/+internal(\/|$)/i.test(path);
}

/**
 * Route guard of the kit's internal routes (`@UseGuards(InternalCallerGuard)`): the middleware
 * above already refuses `/internal/**`; this keeps the route closed in an app built without it.
 */
export class InternalCallerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    if (isInternalCaller(context.switchToHttp().getRequest<object>())) return true;
    throw forbidden(INTERNAL_ONLY_MESSAGE);
  }
}

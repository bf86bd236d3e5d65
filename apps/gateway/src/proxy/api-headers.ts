import type { NextFunction, Request, Response } from 'express';
import { isEdgePath } from './edge';

/**
 * Headers on every answer under /api and /admin, the gateway's own and proxied ones: answers
 * carry tokens and account data, so no cache (browser or shared) keeps them, and no browser
 * guesses another content type than the one declared. A service that sets its own Cache-Control
 * (photo files) keeps it: headers the proxied answer carries win over these.
 */
export function apiResponseHeaders(req: Request, res: Response, next: NextFunction) {
  if (isEdgePath(req.path)) {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
  }
  next();
}

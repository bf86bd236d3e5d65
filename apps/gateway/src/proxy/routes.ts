import { SERVICE_REGISTRY, type ServiceName } from '@mate/contracts';
import type { GatewayEnv } from '../gateway.env';

export interface Route {
  prefix: string;
  service: ServiceName;
  admin?: boolean;
}

/**
 * Which service owns which path prefix, from the service registry (planned services included:
 * their calls are answered 503 until they ship). Longest prefix wins.
 */
export const ROUTE_TABLE: Route[] = SERVICE_REGISTRY.flatMap((s) => [
  ...s.routes.map((prefix) => ({ prefix, service: s.name })),
  ...s.adminRoutes.map((prefix) => ({ prefix, service: s.name, admin: true })),
]);

/** Calls a visitor makes before having a session, from the registry. Everything else needs a live one. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(SERVICE_REGISTRY.flatMap((s) => s.publicRoutes));

/**
 * Public by pattern: photo files, because <img> tags cannot send a bearer token. Their ids are
 * unguessable UUIDs and profile-service serves only photos that exist and were not rejected.
 */
export const PUBLIC_PATTERNS: { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/api\/photos\/files\/[0-9a-f-]{36}\/(large|medium|thumb)\.webp$/ },
  { method: 'HEAD', path: /^\/api\/photos\/files\/[0-9a-f-]{36}\/(large|medium|thumb)\.webp$/ },
];

export function isPublicRoute(method: string, path: string): boolean {
  return PUBLIC_ROUTES.has(`${method} ${path}`) || PUBLIC_PATTERNS.some((p) => p.method === method && p.path.test(path));
}

/**
 * The admin queue dashboard (issue 13): a browser navigation, which carries no bearer token.
 * admin-service checks its own cookie there (a one-time ticket from `POST /api/admin/queues/session`,
 * bound to the admin's live session with role admin), so the gateway forwards only reads of this
 * prefix without a session; everything else under /admin and /api/admin keeps the admin check
 * (`POST /admin/queues/session` included: it is not a read). No dot segment (plain or encoded) or
 * backslash may climb out of the prefix.
 */
export const DASHBOARD_PREFIX = '/admin/queues';

export function isDashboardRoute(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path !== DASHBOARD_PREFIX && !path.startsWith(`${DASHBOARD_PREFIX}/`)) return false;
  return !path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)) && !/[\\]|%5c|%2f/i.test(path);
}

/** Multipart uploads (POST), which may be larger than ordinary JSON bodies. */
export const UPLOAD_ROUTES = [/^\/api\/photos\/upload$/, /^\/api\/profile\/me\/photos(\/upload)?$/, /^\/api\/whisper\/transcribe$/];

/**
 * Whether a request is an upload: streamed to its service under the upload limits, on the upload
 * connections. Only a POST is: another method on an upload path (a 404 or 405 from the service)
 * gets the ordinary, small, read-at-the-edge body, so it cannot borrow the upload allowances.
 */
export function isUploadRoute(method: string, path: string): boolean {
  return method === 'POST' && UPLOAD_ROUTES.some((r) => r.test(path));
}

export function matchRoute(path: string) {
  let best: Route | null = null;
  for (const route of ROUTE_TABLE) {
    if ((path === route.prefix || path.startsWith(`${route.prefix}/`)) && (!best || route.prefix.length > best.prefix.length)) {
      best = route;
    }
  }
  return best;
}

export function serviceUrls(env: GatewayEnv): Partial<Record<ServiceName, string>> {
  return Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, env[s.urlVariable]]));
}

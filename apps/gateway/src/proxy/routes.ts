import { SERVICES, type ServiceName } from '@mate/contracts';
import type { GatewayEnv } from '../gateway.env';

/** Which service owns which path prefix (ARCHITECTURE §1). Longest prefix wins. */
export const ROUTE_TABLE: { prefix: string; service: ServiceName; admin?: boolean }[] = [
  { prefix: '/api/auth', service: SERVICES.auth },
  { prefix: '/api/verification', service: SERVICES.auth },
  { prefix: '/api/sessions', service: SERVICES.auth },
  { prefix: '/api/gdpr', service: SERVICES.auth },
  { prefix: '/api/profile', service: SERVICES.profile },
  { prefix: '/api/photos', service: SERVICES.profile },
  { prefix: '/api/preferences', service: SERVICES.profile },
  { prefix: '/api/matches', service: SERVICES.matching },
  { prefix: '/api/chat', service: SERVICES.chat },
  { prefix: '/api/calls', service: SERVICES.call },
  { prefix: '/api/whisper', service: SERVICES.call },
  { prefix: '/api/safety', service: SERVICES.safety },
  { prefix: '/api/notifications', service: SERVICES.notification },
  { prefix: '/api/admin', service: SERVICES.admin, admin: true },
  { prefix: '/admin', service: SERVICES.admin, admin: true },
];

/** Calls a visitor makes before having a session. Everything else needs a live one. */
export const PUBLIC_ROUTES = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/forgot-password',
  'POST /api/auth/verify-reset-token',
  'POST /api/auth/reset-password',
  'POST /api/auth/verify-email-change',
  'POST /api/verification/verify',
]);

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

/** Multipart uploads, which may be larger than ordinary JSON bodies. */
export const UPLOAD_ROUTES = [/^\/api\/photos\/upload$/, /^\/api\/profile\/me\/photos(\/upload)?$/, /^\/api\/whisper\/transcribe$/];

export function matchRoute(path: string) {
  let best: (typeof ROUTE_TABLE)[number] | null = null;
  for (const route of ROUTE_TABLE) {
    if ((path === route.prefix || path.startsWith(`${route.prefix}/`)) && (!best || route.prefix.length > best.prefix.length)) {
      best = route;
    }
  }
  return best;
}

export function serviceUrls(env: GatewayEnv): Record<ServiceName, string> {
  return {
    [SERVICES.gateway]: '',
    [SERVICES.auth]: env.AUTH_SERVICE_URL,
    [SERVICES.profile]: env.PROFILE_SERVICE_URL,
    [SERVICES.matching]: env.MATCHING_SERVICE_URL,
    [SERVICES.chat]: env.CHAT_SERVICE_URL,
    [SERVICES.call]: env.CALL_SERVICE_URL,
    [SERVICES.safety]: env.SAFETY_SERVICE_URL,
    [SERVICES.admin]: env.ADMIN_SERVICE_URL,
    [SERVICES.notification]: env.NOTIFICATION_SERVICE_URL,
  };
}

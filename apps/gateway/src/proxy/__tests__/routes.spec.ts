import { SERVICE_REGISTRY, SERVICES } from '@mate/contracts';
import { loadEnv } from '@mate/server-kit';
import { GatewayEnv } from '../../gateway.env';
import { isDashboardRoute, isPublicRoute, isUploadRoute, matchRoute, PUBLIC_ROUTES, ROUTE_TABLE, serviceUrls, UPLOAD_ROUTES } from '../routes';

describe('matchRoute', () => {
  it.each([
    ['/api/auth/login', SERVICES.auth],
    ['/api/auth', SERVICES.auth],
    ['/api/sessions/abc', SERVICES.auth],
    ['/api/verification/verify', SERVICES.auth],
    ['/api/gdpr/export', SERVICES.auth],
    ['/api/profile/me', SERVICES.profile],
    ['/api/photos/upload', SERVICES.profile],
    ['/api/preferences', SERVICES.profile],
    ['/api/matches/discover', SERVICES.matching],
    ['/api/chat/conversations', SERVICES.chat],
    ['/api/calls/123', SERVICES.call],
    ['/api/whisper/transcribe', SERVICES.call],
    ['/api/safety/reports', SERVICES.safety],
    ['/api/notifications', SERVICES.notification],
    ['/api/admin/stats', SERVICES.admin],
    ['/admin/reports', SERVICES.admin],
  ])('sends %s to %s', (path, service) => {
    expect(matchRoute(path)?.service).toBe(service);
  });

  it('prefers the longest matching prefix, whatever the table order', () => {
    // '/api/admin' and '/admin' both exist; '/api/admin/...' must match the longer, API one.
    expect(matchRoute('/api/admin/users')?.prefix).toBe('/api/admin');
    const original = [...ROUTE_TABLE];
    try {
      ROUTE_TABLE.splice(0, ROUTE_TABLE.length, ...original.reverse());
      expect(matchRoute('/api/admin/users')?.prefix).toBe('/api/admin');
      ROUTE_TABLE.push({ prefix: '/api/auth/special', service: SERVICES.profile });
      expect(matchRoute('/api/auth/special/x')?.service).toBe(SERVICES.profile);
      expect(matchRoute('/api/auth/specialist')?.service).toBe(SERVICES.auth);
    } finally {
      ROUTE_TABLE.splice(0, ROUTE_TABLE.length, ...original);
    }
  });

  it('marks /admin and /api/admin, and only those, as admin routes', () => {
    expect(matchRoute('/admin')?.admin).toBe(true);
    expect(matchRoute('/admin/reports')?.admin).toBe(true);
    expect(matchRoute('/api/admin')?.admin).toBe(true);
    expect(matchRoute('/api/admin/stats')?.admin).toBe(true);
    const adminPrefixes = ROUTE_TABLE.filter((r) => r.admin).map((r) => r.prefix).sort();
    expect(adminPrefixes).toEqual(['/admin', '/api/admin']);
    expect(matchRoute('/api/auth/me')?.admin).toBeFalsy();
  });

  it.each([
    '/api/nope',
    '/api',
    '/api/',
    '/',
    '/health',
    '/api/authx',
    '/api/adminx/stats',
    '/administrator',
    '/API/admin/stats',
    '/api/Admin/stats',
    '/x/api/auth',
  ])('finds no route for %s', (path) => {
    expect(matchRoute(path)).toBeNull();
  });
});

describe('PUBLIC_ROUTES', () => {
  it('lists exactly the calls made before having a session', () => {
    expect([...PUBLIC_ROUTES].sort()).toEqual(
      [
        'POST /api/auth/register',
        'POST /api/auth/login',
        'POST /api/auth/forgot-password',
        'POST /api/auth/verify-reset-token',
        'POST /api/auth/reset-password',
        'POST /api/auth/verify-email-change',
        'POST /api/auth/cancel-email-change',
        'POST /api/verification/verify',
      ].sort(),
    );
  });

  it('has no GET, no admin and no signed-in-only call in it', () => {
    for (const entry of PUBLIC_ROUTES) {
      const [method, path] = entry.split(' ');
      expect(method).toBe('POST');
      expect(matchRoute(path)?.service).toBe(SERVICES.auth);
      expect(matchRoute(path)?.admin).toBeFalsy();
    }
    expect(PUBLIC_ROUTES.has('GET /api/auth/me')).toBe(false);
    expect(PUBLIC_ROUTES.has('POST /api/auth/logout')).toBe(false);
    expect(PUBLIC_ROUTES.has('POST /api/verification/resend')).toBe(false);
  });
});

describe('isPublicRoute', () => {
  const file = '/api/photos/files/0b9c6c1e-4d1e-4c4a-9a51-6f4f2f2b9e11/large.webp';

  it('lets <img> tags load photo files without a token', () => {
    expect(isPublicRoute('GET', file)).toBe(true);
    expect(isPublicRoute('GET', file.replace('large', 'thumb'))).toBe(true);
  });

  it('keeps every other photo call behind a session', () => {
    expect(isPublicRoute('DELETE', file)).toBe(false);
    expect(isPublicRoute('GET', '/api/photos')).toBe(false);
    expect(isPublicRoute('GET', '/api/photos/files/not-a-uuid/large.webp')).toBe(false);
    expect(isPublicRoute('GET', `${file}/../../../profile/me`)).toBe(false);
    expect(isPublicRoute('GET', file.replace('large.webp', 'original.jpg'))).toBe(false);
  });
});

describe('isDashboardRoute', () => {
  it('lets reads of the queue dashboard through without a session (admin-service checks its cookie)', () => {
    expect(isDashboardRoute('GET', '/admin/queues')).toBe(true);
    expect(isDashboardRoute('GET', '/admin/queues/')).toBe(true);
    expect(isDashboardRoute('GET', '/admin/queues/api/queues')).toBe(true);
    expect(isDashboardRoute('HEAD', '/admin/queues/static/main.js')).toBe(true);
  });

  it('keeps the session check on writes, other paths and anything climbing out of the prefix', () => {
    expect(isDashboardRoute('POST', '/admin/queues/session')).toBe(false);
    expect(isDashboardRoute('PUT', '/admin/queues/api/queues/x/pause')).toBe(false);
    expect(isDashboardRoute('GET', '/api/admin/queues')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/queuesx')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/reports')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/queues/../reports')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/queues/%2E%2e/reports')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/queues/.%2e/reports')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/queues/..%2freports')).toBe(false);
    expect(isDashboardRoute('GET', '/admin/queues\\..\\reports')).toBe(false);
  });
});

describe('UPLOAD_ROUTES and serviceUrls', () => {
  const isUpload = (path: string) => UPLOAD_ROUTES.some((r) => r.test(path));

  it('allows larger bodies only on the upload endpoints', () => {
    expect(isUpload('/api/photos/upload')).toBe(true);
    expect(isUpload('/api/profile/me/photos')).toBe(true);
    expect(isUpload('/api/profile/me/photos/upload')).toBe(true);
    expect(isUpload('/api/whisper/transcribe')).toBe(true);
    expect(isUpload('/api/photos/upload/extra')).toBe(false);
    expect(isUpload('/api/auth/register')).toBe(false);
    expect(isUpload('/api/profile/me')).toBe(false);
  });

  it('treats only a POST to an upload path as an upload (issue 7 item 1: a PUT or GET gets the ordinary limits)', () => {
    expect(isUploadRoute('POST', '/api/profile/me/photos')).toBe(true);
    expect(isUploadRoute('POST', '/api/whisper/transcribe')).toBe(true);
    for (const method of ['PUT', 'PATCH', 'GET', 'DELETE', 'OPTIONS', 'post']) {
      expect({ method, upload: isUploadRoute(method, '/api/profile/me/photos') }).toEqual({ method, upload: false });
    }
    expect(isUploadRoute('POST', '/api/profile/me')).toBe(false);
  });

  it('maps every routed service to its configured URL', () => {
    const env = Object.assign(new GatewayEnv(), { AUTH_SERVICE_URL: 'http://auth.test:1', ADMIN_SERVICE_URL: 'http://admin.test:2' });
    const urls = serviceUrls(env);
    expect(urls[SERVICES.auth]).toBe('http://auth.test:1');
    expect(urls[SERVICES.admin]).toBe('http://admin.test:2');
    for (const route of ROUTE_TABLE) expect(urls[route.service]).toMatch(/^http:\/\//);
  });

  it('routes every prefix of the service registry, planned services included, and reads each one’s URL variable', () => {
    for (const service of SERVICE_REGISTRY) {
      for (const prefix of service.routes) expect(matchRoute(`${prefix}/x`)).toEqual({ prefix, service: service.name });
      for (const prefix of service.adminRoutes) expect(matchRoute(prefix)).toEqual({ prefix, service: service.name, admin: true });
    }
    expect(ROUTE_TABLE).toHaveLength(SERVICE_REGISTRY.reduce((n, s) => n + s.routes.length + s.adminRoutes.length, 0));

    const env = loadEnv(GatewayEnv, { PROFILE_SERVICE_URL: 'http://profile.internal:80' });
    const urls = serviceUrls(env);
    for (const service of SERVICE_REGISTRY) {
      expect(urls[service.name]).toBe(service.name === SERVICES.profile ? 'http://profile.internal:80' : `http://127.0.0.1:${service.port}`);
    }
    expect(() => loadEnv(GatewayEnv, { CHAT_SERVICE_URL: 'not a url' })).toThrow(/CHAT_SERVICE_URL/);
  });
});

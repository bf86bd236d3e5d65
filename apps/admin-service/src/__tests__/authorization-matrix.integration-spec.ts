import { randomUUID } from 'node:crypto';
import { ADMIN_API_PREFIXES, AuthMessages } from '@mate/contracts';
import { listControllerRoutes } from '@mate/server-kit';
import type { SignedIn } from '@mate/server-kit/testing';
import { startAdminTestBed, type AdminTestBed } from './admin-test-bed';

/**
 * Spec 001 §7's admin calls (and the queue dashboard's session), each to be served under both
 * readings of the API base. The matrix below runs over the routes the app really serves; this list
 * only checks that none of the documented ones is missing and nothing undocumented is served.
 */
const DOCUMENTED = [
  'GET /reports',
  'GET /reports/{id}',
  'PATCH /reports/{id}',
  'GET /users/{id}',
  'POST /users/{id}/suspend',
  'POST /users/{id}/unsuspend',
  'DELETE /users/{id}',
  'GET /users/search',
  'GET /photos/pending',
  'POST /photos/{id}/approve',
  'POST /photos/{id}/reject',
  'GET /stats',
  'GET /statistics',
  'GET /analytics/overview',
  'GET /analytics/user-growth',
  'GET /analytics/engagement',
  'GET /analytics/matches',
  'GET /analytics/retention',
  'GET /analytics/safety',
  'GET /analytics/report-trends',
  'GET /audit',
  'POST /queues/session',
];

/** A body and query an admin would send, so the call reaches the service's own checks. */
function requestOf(method: string, path: string): { path: string; body?: unknown } {
  const concrete = path.replace(/\{[^}]+\}/g, () => randomUUID());
  if (concrete.endsWith('/suspend') || concrete.endsWith('/reject')) return { path: concrete, body: { reason: 'Matrix' } };
  if (method === 'PATCH') return { path: concrete, body: { status: 'reviewed' } };
  if (concrete.endsWith('/users/search')) return { path: `${concrete}?q=matrix` };
  return { path: concrete };
}

describe('admin-service authorization matrix (every admin route x anonymous, member, suspended member, admin; both prefixes)', () => {
  let t: AdminTestBed;
  let routes: { method: string; path: string }[];
  let member: SignedIn;
  let suspended: SignedIn;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await startAdminTestBed('admin_matrix');
    routes = listControllerRoutes(t.bed.app)
      .filter((r) => !r.excluded && ADMIN_API_PREFIXES.some((p) => r.path.startsWith(`${p}/`)))
      .map((r) => ({ method: r.method.toUpperCase(), path: r.openApiPath }));
    [member, suspended, admin] = await Promise.all([t.member(), t.suspendedMember(), t.admin()]);
  });

  afterAll(() => t?.close());

  it('serves exactly the documented admin calls, each under /admin and /api/admin', () => {
    const served = routes.map((r) => `${r.method} ${r.path}`).sort();
    const expected = ADMIN_API_PREFIXES.flatMap((prefix) => DOCUMENTED.map((d) => d.replace(' /', ` ${prefix}/`))).sort();
    expect(served).toEqual(expected);
  });

  it('refuses anonymous callers with 401', async () => {
    for (const route of routes) {
      const { path, body } = requestOf(route.method, route.path);
      const res = await t.api(null, route.method, path, { body });
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 401 });
    }
  });

  it('refuses members with 403 Admin access required', async () => {
    for (const route of routes) {
      const { path, body } = requestOf(route.method, route.path);
      const res = await t.api(member, route.method, path, { body });
      expect({ route: `${route.method} ${route.path}`, status: res.status, error: (res.body as { error?: string }).error }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        error: AuthMessages.adminRequired,
      });
    }
  });

  it('refuses a suspended member (their sessions ended) with 401', async () => {
    for (const route of routes) {
      const { path, body } = requestOf(route.method, route.path);
      const res = await t.api(suspended, route.method, path, { body });
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 401 });
    }
  });

  it('lets an admin through to the route itself (its own answer, never 401/403 or 500)', async () => {
    for (const route of routes) {
      const { path, body } = requestOf(route.method, route.path);
      const res = await t.api(admin, route.method, path, { body });
      const passed = ![401, 403].includes(res.status) && (res.status < 500 || res.status === 503);
      expect({ route: `${route.method} ${route.path}`, status: res.status, passed }).toEqual({ route: `${route.method} ${route.path}`, status: res.status, passed: true });
    }
  });
});

import { createAdminApiClient } from './admin-client';
import { fails, json, ok, startTestServer, type Reply } from '../testing/http-test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('the admin client against a real HTTP server', () => {
  let server: Server;
  let reply: Reply;

  beforeAll(async () => {
    server = await startTestServer((req, res) => reply(req, res));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const client = () => createAdminApiClient({ baseUrl: server.baseUrl, getToken: () => 'admin-tok' }).admin;
  const calls = () => server.requests.map((r) => `${r.method} ${r.path}${r.query.toString() ? `?${r.query.toString()}` : ''}`);

  it('reads reports under /admin with limit 20, no status for all, and the array the server answers', async () => {
    reply = (_req, res) => {
      res.setHeader('X-Total-Count', '1');
      json(res, 200, [{ id: 'r1' }]);
    };
    await expect(client().getReports({ status: 'pending' })).resolves.toEqual([{ id: 'r1' }]);
    await client().getReports({ status: 'all', reason: 'spam', offset: 20 });
    await client().getReports();
    expect(calls()).toEqual([
      'GET /admin/reports?status=pending&limit=20',
      'GET /admin/reports?limit=20&reason=spam&offset=20',
      'GET /admin/reports?limit=20',
    ]);
    expect(server.requests[0].headers.authorization).toBe('Bearer admin-tok');
  });

  it('reads a page of reports with its total (X-Total-Count), and says whether another page follows', async () => {
    const page = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}` }));
    reply = (req, res) => {
      res.setHeader('X-Total-Count', '25');
      json(res, 200, req.query.get('offset') === '20' ? page(5) : page(20));
    };
    await expect(client().getReportsPage({ status: 'pending' })).resolves.toMatchObject({ total: 25, limit: 20, offset: 0, hasMore: true });
    const last = await client().getReportsPage({ status: 'all', offset: 20 });
    expect(last).toMatchObject({ total: 25, offset: 20, hasMore: false });
    expect(last.reports).toHaveLength(5);
    expect(calls()).toEqual(['GET /admin/reports?status=pending&limit=20', 'GET /admin/reports?limit=20&offset=20']);

    // Without the header: no total, and a full page may have a next one.
    reply = (_req, res) => json(res, 200, page(20));
    await expect(client().getReportsPage()).resolves.toMatchObject({ total: null, hasMore: true });
    reply = (_req, res) => json(res, 200, page(3));
    await expect(client().getReportsPage()).resolves.toMatchObject({ total: null, hasMore: false });
  });

  it('sends report resolution with an optional note', async () => {
    reply = ok({ applied: true, auditId: 'a1' });
    await expect(client().updateReport('r1', 'reviewed', '  checked ')).resolves.toEqual({ applied: true, auditId: 'a1' });
    await client().updateReport('r1', 'dismissed', '   ');
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['PATCH', '/admin/reports/r1', { status: 'reviewed', resolution: 'checked' }],
      ['PATCH', '/admin/reports/r1', { status: 'dismissed' }],
    ]);
  });

  it('moderates users and photos with the spec paths and bodies; 202 is a success', async () => {
    reply = ok({ applied: false, auditId: 'a2' }, 202);
    const admin = client();
    await admin.suspendUser('u1', ' spam ');
    await admin.unsuspendUser('u1');
    await admin.deleteUser('u1');
    await admin.approvePhoto('p1');
    await expect(admin.rejectPhoto('p2', ' nudity ')).resolves.toEqual({ applied: false, auditId: 'a2' });
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/admin/users/u1/suspend', { reason: 'spam' }],
      ['POST', '/admin/users/u1/unsuspend', undefined],
      ['DELETE', '/admin/users/u1', undefined],
      ['POST', '/admin/photos/p1/approve', undefined],
      ['POST', '/admin/photos/p2/reject', { reason: 'nudity' }],
    ]);
  });

  it.each([
    ['getReports', (c: ReturnType<typeof client>) => c.getReports(), 'Failed to get reports'],
    ['getReportsPage', (c: ReturnType<typeof client>) => c.getReportsPage(), 'Failed to get reports'],
    ['getReport', (c: ReturnType<typeof client>) => c.getReport('r'), 'Failed to get report'],
    ['updateReport', (c: ReturnType<typeof client>) => c.updateReport('r', 'reviewed'), 'Failed to update report'],
    ['getUser', (c: ReturnType<typeof client>) => c.getUser('u'), 'Failed to get user details'],
    ['suspendUser', (c: ReturnType<typeof client>) => c.suspendUser('u', 'x'), 'Failed to suspend user'],
    ['unsuspendUser', (c: ReturnType<typeof client>) => c.unsuspendUser('u'), 'Failed to unsuspend user'],
    ['deleteUser', (c: ReturnType<typeof client>) => c.deleteUser('u'), 'Failed to delete user'],
    ['searchUsers', (c: ReturnType<typeof client>) => c.searchUsers('a'), 'Failed to search users'],
    ['getPendingPhotos', (c: ReturnType<typeof client>) => c.getPendingPhotos(), 'Failed to get pending photos'],
    ['approvePhoto', (c: ReturnType<typeof client>) => c.approvePhoto('p'), 'Failed to approve photo'],
    ['rejectPhoto', (c: ReturnType<typeof client>) => c.rejectPhoto('p', 'x'), 'Failed to reject photo'],
  ])('%s fails with the spec 001 §8 fallback, or the server error as is', async (_name, call, fallback) => {
    reply = fails(500);
    await expect(call(client())).rejects.toThrow(fallback);
    reply = fails(403, { error: 'Admin access required' });
    await expect(call(client())).rejects.toMatchObject({ message: 'Admin access required', status: 403 });
  });

  it('reads statistics, analytics with days, and search with limit 20 under the spec paths', async () => {
    reply = ok([]);
    const admin = client();
    await admin.getStats();
    await admin.getOverview();
    await admin.getUserGrowth(30);
    await admin.getEngagement(7);
    await admin.getMatchAnalytics(90);
    await admin.getRetention();
    await admin.getSafety();
    await admin.getReportTrends(30);
    await admin.searchUsers('ann');
    expect(calls()).toEqual([
      'GET /api/admin/stats',
      'GET /api/admin/analytics/overview',
      'GET /api/admin/analytics/user-growth?days=30',
      'GET /api/admin/analytics/engagement?days=7',
      'GET /api/admin/analytics/matches?days=90',
      'GET /api/admin/analytics/retention',
      'GET /api/admin/analytics/safety',
      'GET /api/admin/analytics/report-trends?days=30',
      'GET /admin/users/search?q=ann&limit=20',
    ]);
  });

  it('pages the audit log by 50 with only the filters that are set', async () => {
    reply = ok({ logs: [{ id: 'l1' }], total: 51, limit: 50, offset: 50 });
    await expect(
      client().getAuditLogs({ action: 'suspend_user', search: ' ann ', startDate: '2026-01-01', endDate: '', offset: 50 }),
    ).resolves.toEqual({ logs: [{ id: 'l1' }], total: 51, limit: 50, offset: 50 });
    await client().getAuditLogs({ action: '' });
    expect(calls()).toEqual([
      'GET /api/admin/audit?action=suspend_user&search=ann&startDate=2026-01-01&limit=50&offset=50',
      'GET /api/admin/audit?limit=50&offset=0',
    ]);
  });

  it('asks for a queue dashboard session and makes its link absolute on the API origin', async () => {
    reply = ok({ url: '/admin/queues/?ticket=abc' });
    const admin = client();
    const { url } = await admin.createQueueDashboardSession();
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/api/admin/queues/session' });
    expect(admin.apiUrl(url)).toBe(`${server.baseUrl}/admin/queues/?ticket=abc`);
    expect(admin.apiUrl('https://cdn.example/p.webp')).toBe('https://cdn.example/p.webp');
  });
});

import { randomUUID } from 'node:crypto';
import { AdminErrorCode, SERVICES, type AdminCommandResultDto, type AdminReportDetailDto, type AdminReportDto } from '@mate/contracts';
import { aProfile, call, waitFor, type SignedIn } from '@mate/server-kit/testing';
import { closedServiceUrl, startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';
import { adminEnvFor, sharedInfra, startOwner, type OwnerProcess, type SharedInfra } from '../../__tests__/owner-processes';
import { REPORT_NOT_PENDING } from '../reports.service';

const UA = 'Mozilla/5.0 (admin-test) reports';

describe('admin reports against the real safety-service (list, detail, each transition, the audit entry)', () => {
  let infra: SharedInfra;
  let safety: OwnerProcess;
  let t: AdminTestBed;
  let admin: SignedIn;

  beforeAll(async () => {
    infra = await sharedInfra('admin_reports');
    safety = await startOwner(SERVICES.safety, infra, { CHAT_SERVICE_URL: await closedServiceUrl() });
    t = await startAdminTestBed('admin_reports', { env: adminEnvFor(infra, { SAFETY: safety }) });
    admin = await t.admin();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await safety?.stop();
    await infra?.cleanup();
  });

  /** Two members safety knows, and a report of the second by the first (through safety's own API). */
  async function aReport(): Promise<{ reportId: string; reporter: SignedIn; reported: SignedIn }> {
    const [reporter, reported] = await Promise.all([t.member(), t.member()]);
    for (const m of [reporter, reported]) {
      await safety.deliver('profile.updated', aProfile(m.userId, `Member ${m.userId.slice(0, 4)}`), { type: 'profile', id: m.userId, version: 1 });
    }
    const res = await waitFor(
      async () => {
        const r = await call<{ id?: string; reportId?: string }>(safety.url, 'POST', `/api/safety/report/${reported.userId}`, {
          token: reporter.token,
          body: { reason: 'harassment', details: 'Rude messages' },
        });
        return r.status === 404 ? null : r;
      },
      { what: 'safety to know both members' },
    );
    expect(res.status).toBe(201);
    const list = await t.api<AdminReportDto[]>(admin, 'GET', `/admin/reports?limit=100`);
    const report = list.body.find((r) => r.reporterId === reporter.userId && r.reportedUserId === reported.userId);
    if (!report) throw new Error('the report is not listed');
    return { reportId: report.id, reporter, reported };
  }

  async function auditRow(auditId: string) {
    const [row] = await t.bed.dataSource.query('SELECT * FROM audit_log WHERE id = $1', [auditId]);
    return row as Record<string, unknown>;
  }

  it('lists reports (status filter, X-Total-Count) and shows one with its snapshot, under both prefixes', async () => {
    const { reportId, reporter, reported } = await aReport();
    const pending = await t.api<AdminReportDto[]>(admin, 'GET', '/api/admin/reports?status=pending&reason=harassment');
    expect(pending.status).toBe(200);
    expect(Number(pending.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);
    expect(pending.body.find((r) => r.id === reportId)).toMatchObject({
      status: 'pending',
      reason: 'harassment',
      details: 'Rude messages',
      resolution: null,
      reporterId: reporter.userId,
      reportedUserId: reported.userId,
      // auth and profile are not running here: names and emails are unknown, not an error
      reporterName: null,
      reportedUserEmail: null,
    });
    expect((await t.api<AdminReportDto[]>(admin, 'GET', '/admin/reports?status=dismissed')).body.find((r) => r.id === reportId)).toBeUndefined();
    const detail = await t.api<AdminReportDetailDto>(admin, 'GET', `/admin/reports/${reportId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: reportId, status: 'pending', snapshot: { messages: expect.any(Array) } });
    expect(detail.body.snapshot.reportedProfile).toMatchObject({ name: `Member ${reported.userId.slice(0, 4)}` });
  });

  it('pages 25 reports 20 at a time: X-Total-Count is the whole filter view on every page (the reports screen pages by it)', async () => {
    const [reported, ...reporters] = await Promise.all(Array.from({ length: 26 }, () => t.member()));
    await Promise.all(
      [reported, ...reporters].map((m) => safety.deliver('profile.updated', aProfile(m.userId, 'Paged'), { type: 'profile', id: m.userId, version: 1 })),
    );
    for (const reporter of reporters) {
      await waitFor(
        async () =>
          (await call(safety.url, 'POST', `/api/safety/report/${reported.userId}`, { token: reporter.token, body: { reason: 'underage' } })).status === 201,
        { what: 'safety to know both members' },
      );
    }
    const page = (query: string) => t.api<AdminReportDto[]>(admin, 'GET', `/admin/reports?status=pending&reason=underage&${query}`);
    const first = await page('limit=20');
    const second = await page('limit=20&offset=20');
    const beyond = await page('limit=20&offset=40');
    expect([first, second, beyond].map((r) => [r.status, r.body.length, r.headers.get('x-total-count')])).toEqual([
      [200, 20, '25'],
      [200, 5, '25'],
      [200, 0, '25'],
    ]);
    const ids = [...first.body, ...second.body].map((r) => r.id);
    expect(new Set(ids).size).toBe(25);
    expect([...first.body, ...second.body].map((r) => r.reporterId).sort()).toEqual(reporters.map((r) => r.userId).sort());
    // Newest first across the pages.
    const times = [...first.body, ...second.body].map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'offset=100001', 'offset=abc']) {
      const res = await t.api<{ error: string }>(admin, 'GET', `/admin/reports?${bad}`);
      expect({ bad, status: res.status, error: res.body.error }).toEqual({ bad, status: 400, error: expect.stringMatching(/^(limit|offset) must be a whole number/) });
    }
  });

  it.each(['reviewed', 'dismissed'] as const)('moves a pending report to %s, audited with IP and user agent; a second decision is 409', async (status) => {
    const { reportId, reported } = await aReport();
    const res = await t.api<AdminCommandResultDto>(admin, 'PATCH', `/api/admin/reports/${reportId}`, {
      body: { status, resolution: '  Warned the member  ' },
      headers: { 'user-agent': UA },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ applied: true, auditId: expect.any(String) });
    const detail = await t.api<AdminReportDetailDto>(admin, 'GET', `/admin/reports/${reportId}`);
    expect(detail.body).toMatchObject({ status, resolution: 'Warned the member', resolvedAt: expect.any(String) });
    const row = await auditRow(res.body.auditId);
    expect(row).toMatchObject({
      action: 'resolve_report',
      admin_id: admin.userId,
      target_user_id: reported.userId,
      resource_type: 'report',
      resource_id: reportId,
      user_agent: UA,
      details: { status, resolution: 'Warned the member', reason: 'harassment' },
    });
    expect(row.ip_address).toMatch(/127\.0\.0\.1/);
    const again = await t.api<{ error: string }>(admin, 'PATCH', `/admin/reports/${reportId}`, { body: { status: 'dismissed' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: REPORT_NOT_PENDING, code: AdminErrorCode.ReportNotPending });
    const entries = await t.bed.dataSource.query('SELECT count(*)::int AS n FROM audit_log WHERE resource_id = $1', [reportId]);
    expect(entries).toEqual([{ n: 1 }]);
  });

  it('lets only one of two admins deciding the same report at once win (the other 409, one audit entry)', async () => {
    const { reportId } = await aReport();
    const other = await t.admin();
    const answers = await Promise.all([
      t.api(admin, 'PATCH', `/admin/reports/${reportId}`, { body: { status: 'reviewed' } }),
      t.api(other, 'PATCH', `/admin/reports/${reportId}`, { body: { status: 'dismissed' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const entries = await t.bed.dataSource.query('SELECT count(*)::int AS n FROM audit_log WHERE resource_id = $1', [reportId]);
    expect(entries).toEqual([{ n: 1 }]);
  });

  it('answers 202 applied: false when the owner has not carried the command out in time; the command stays in the outbox', async () => {
    const { reportId } = await aReport();
    // A second admin-service on its own key prefix (its queues nobody works) with a short wait.
    const { KEY_PREFIX: _shared, ...env } = adminEnvFor(infra, { SAFETY: safety });
    const idle = await startAdminTestBed('admin_reports_idle', { env: { ...env, ADMIN_COMMAND_WAIT_MS: '100' } });
    try {
      const res = await idle.api<AdminCommandResultDto>(await idle.admin(), 'PATCH', `/admin/reports/${reportId}`, { body: { status: 'dismissed' } });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ applied: false, auditId: expect.any(String) });
      const jobs = await idle.bed.dataSource.query(`SELECT body FROM outbox WHERE kind = 'job' AND name = 'jobs.report-admin'`);
      expect(jobs.map((j: { body: { data: unknown } }) => j.body.data)).toEqual([
        { kind: 'resolve', reportId, status: 'dismissed', resolution: null, adminId: expect.any(String) },
      ]);
    } finally {
      await idle.close();
    }
  }, 60_000);

  it('answers 404 for a report that does not exist (detail and resolution), writing nothing', async () => {
    const id = randomUUID();
    expect((await t.api(admin, 'GET', `/admin/reports/${id}`)).status).toBe(404);
    const res = await t.api<{ error: string }>(admin, 'PATCH', `/admin/reports/${id}`, { body: { status: 'reviewed' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Report not found');
    expect(await t.bed.dataSource.query('SELECT 1 FROM audit_log WHERE resource_id = $1', [id])).toEqual([]);
  });
});

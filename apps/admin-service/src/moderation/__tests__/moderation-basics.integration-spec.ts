import { randomUUID } from 'node:crypto';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { AdminUserDetailDto, AuditLogPageDto } from '@mate/contracts';
import { documentationGaps, OPENAPI_PATH } from '@mate/server-kit';
import type { SignedIn } from '@mate/server-kit/testing';
import { startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';

/** An audit row as the commands write it (SQL: the owners are not part of these tests). */
async function audit(
  t: AdminTestBed,
  row: { action: string; adminId: string; targetUserId?: string | null; resourceId?: string; details?: object; createdAt: string },
): Promise<string> {
  const id = randomUUID();
  await t.bed.dataSource.query(
    `INSERT INTO audit_log (id, action, admin_id, target_user_id, ip_address, user_agent, resource_type, resource_id, details, created_at)
     VALUES ($1, $2, $3, $4, '203.0.113.9', 'jest', 'user', $5, $6::jsonb, $7)`,
    [id, row.action, row.adminId, row.targetUserId ?? null, row.resourceId ?? randomUUID(), JSON.stringify(row.details ?? {}), row.createdAt],
  );
  return id;
}

describe('admin-service moderation: documentation, validation, audit log, parts that do not answer', () => {
  let t: AdminTestBed;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await startAdminTestBed('admin_moderation_basics');
    admin = await t.admin();
  });

  afterAll(() => t?.close());

  it('documents every route it serves, each with a 2xx answer', async () => {
    const res = await t.bed.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(documentationGaps(t.bed.app, res.body)).toEqual([]);
    expect(res.body.paths['/api/admin/users/{id}/suspend']?.post?.responses).toHaveProperty('202');
  });

  describe('the audit table refuses every change in the database', () => {
    it.each([
      ['UPDATE', (id: string) => `UPDATE audit_log SET action = 'force_logout' WHERE id = '${id}'`],
      ['DELETE', (id: string) => `DELETE FROM audit_log WHERE id = '${id}'`],
      ['TRUNCATE', () => 'TRUNCATE audit_log CASCADE'],
    ])('%s', async (_op, sql) => {
      const id = await audit(t, { action: 'suspend_user', adminId: admin.userId, createdAt: new Date().toISOString() });
      await expect(t.bed.dataSource.query(sql(id))).rejects.toThrow(/append-only/);
      const [row] = await t.bed.dataSource.query('SELECT action FROM audit_log WHERE id = $1', [id]);
      expect(row).toEqual({ action: 'suspend_user' });
    });
  });

  describe('GET audit: filters and paging, newest first', () => {
    const other = randomUUID();
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      ids.a = await audit(t, { action: 'resolve_report', adminId: other, resourceId: 'r-1', details: { resolution: 'needle in details' }, createdAt: '2030-01-10T08:00:00Z' });
      ids.b = await audit(t, { action: 'reject_photo', adminId: other, details: { reason: 'x' }, createdAt: '2030-01-11T23:59:59Z' });
      ids.c = await audit(t, { action: 'reject_photo', adminId: other, createdAt: '2030-01-12T00:00:00Z' });
      ids.d = await audit(t, { action: 'approve_photo', adminId: other, createdAt: '2030-01-13T00:00:00Z' });
    });

    const get = (query: string) => t.api<AuditLogPageDto>(admin, 'GET', `/api/admin/audit?${query}`);

    it('filters by action and date range (endDate takes its whole day)', async () => {
      const res = await get('action=reject_photo&startDate=2030-01-10&endDate=2030-01-11');
      expect(res.status).toBe(200);
      expect(res.body.logs.map((l) => l.id)).toEqual([ids.b]);
      expect(res.body.total).toBe(1);
      const range = await get('startDate=2030-01-10&endDate=2030-01-12');
      expect(range.body.logs.map((l) => l.id)).toEqual([ids.c, ids.b, ids.a]);
    });

    it('pages with limit and offset (default 50) and says the total', async () => {
      const first = await get('startDate=2030-01-01&endDate=2030-12-31&limit=2');
      expect(first.body).toMatchObject({ total: 4, limit: 2, offset: 0 });
      expect(first.body.logs.map((l) => l.id)).toEqual([ids.d, ids.c]);
      const second = await get('startDate=2030-01-01&endDate=2030-12-31&limit=2&offset=2');
      expect(second.body.logs.map((l) => l.id)).toEqual([ids.b, ids.a]);
      expect((await get('')).body.limit).toBe(50);
    });

    it('searches the resource id and the details text (names and emails via auth, here away)', async () => {
      expect((await get('search=NEEDLE')).body.logs.map((l) => l.id)).toEqual([ids.a]);
      expect((await get('search=r-1')).body.logs.map((l) => l.id)).toEqual([ids.a]);
      expect((await get('search=%25')).body.logs).toEqual([]);
    });

    it('shows each entry with its fields; names N/A when auth does not answer', async () => {
      const res = await get('action=resolve_report&startDate=2030-01-10&endDate=2030-01-10');
      expect(res.body.logs[0]).toEqual({
        id: ids.a,
        action: 'resolve_report',
        admin: { id: other, name: null, email: null, deleted: false }, // auth away: not known to be deleted
        targetUser: null,
        createdAt: '2030-01-10T08:00:00.000Z',
        ipAddress: '203.0.113.9',
        userAgent: 'jest',
        targetResourceType: 'user',
        targetResourceId: 'r-1',
        details: { resolution: 'needle in details' },
      });
    });

    it.each([
      ['action=nope', 'action must be one of'],
      ['limit=0', 'limit must be a whole number from 1 to 200'],
      ['limit=201', 'limit must be a whole number from 1 to 200'],
      ['offset=-1', 'offset must be a whole number'],
      ['startDate=yesterday', 'startDate must be a date'],
      ['endDate=2030-02-30', 'endDate must be a date'],
      ['startDate=2030-01-12&endDate=2030-01-10', 'startDate must be before endDate'],
      ['search=' + 'x'.repeat(201), 'search must be at most 200 characters'],
      ['extra=1', 'Unknown field: extra'],
    ])('refuses %s', async (query, error) => {
      const res = await get(query);
      expect(res.status).toBe(400);
      expect((res.body as unknown as { error: string }).error).toContain(error);
    });
  });

  it('user detail: every part unavailable is N/A (nulls, named in unavailable), never a 500', async () => {
    const id = randomUUID();
    const res = await t.api<AdminUserDetailDto>(admin, 'GET', `/admin/users/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: null, email: null, lastActive: null, isSuspended: null, photos: [], matchCount: null, reportsMade: null });
    expect(res.body.unavailable.sort()).toEqual(['account', 'matching', 'profile', 'safety']);
  });

  it.each([
    ['GET', '/admin/users/not-a-uuid', undefined, 'userId must be a UUID'],
    ['GET', '/admin/reports/not-a-uuid', undefined, 'id must be a UUID'],
    ['POST', '/admin/photos/not-a-uuid/approve', undefined, 'id must be a UUID'],
    ['GET', '/admin/users/search', undefined, 'q is required'],
    ['GET', '/admin/users/search?q=%20%20', undefined, 'q is required'],
    ['GET', `/admin/users/search?q=${'a'.repeat(101)}`, undefined, 'q must be at most 100 characters'],
    ['GET', '/admin/users/search?q=a&limit=101', undefined, 'limit must be a whole number from 1 to 100'],
    ['GET', '/admin/reports?status=open', undefined, 'status must be one of'],
    ['GET', '/admin/reports?limit=101', undefined, 'limit must be a whole number from 1 to 100'],
    ['GET', '/admin/reports?reason=rudeness', undefined, 'reason must be one of'],
    ['GET', '/admin/reports?offset=100001', undefined, 'offset must be a whole number from 0 to 100000'],
    ['PATCH', `/admin/reports/${randomUUID()}`, { status: 'pending' }, 'status must be reviewed or dismissed'],
    ['PATCH', `/admin/reports/${randomUUID()}`, { status: 'reviewed', resolution: 'x'.repeat(1001) }, 'resolution must be at most 1000 characters'],
    ['PATCH', `/admin/reports/${randomUUID()}`, { status: 'reviewed', extra: 1 }, 'Unknown field: extra'],
    ['POST', `/admin/users/${randomUUID()}/suspend`, {}, 'Please provide a suspension reason'],
    ['POST', `/admin/users/${randomUUID()}/suspend`, { reason: '   ' }, 'Please provide a suspension reason'],
    ['POST', `/admin/users/${randomUUID()}/suspend`, { reason: 'x'.repeat(501) }, 'reason must be at most 500 characters'],
    ['POST', `/admin/users/${randomUUID()}/unsuspend`, { reason: 'x' }, 'Unknown field: reason'],
    ['DELETE', `/admin/users/${randomUUID()}`, { confirm: true }, 'Unknown field: confirm'],
    ['POST', `/admin/photos/${randomUUID()}/reject`, { reason: ' ' }, 'Please provide a rejection reason'],
    ['POST', `/admin/photos/${randomUUID()}/reject`, {}, 'Please provide a rejection reason'],
    ['POST', `/admin/photos/${randomUUID()}/approve`, { note: 'x' }, 'Unknown field: note'],
  ])('%s %s is refused with 400', async (method, path, body, error) => {
    const res = await t.api<{ error: string }>(admin, method, path, { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(error);
  });

  it('refuses an admin suspending or deleting their own account', async () => {
    const self = await t.api<{ error: string }>(admin, 'POST', `/api/admin/users/${admin.userId}/suspend`, { body: { reason: 'me' } });
    expect(self.status).toBe(400);
    expect((await t.api(admin, 'DELETE', `/api/admin/users/${admin.userId}`)).status).toBe(400);
  });

  it('answers 503 with a clear error when an owner does not answer (reports, photos, stats, search)', async () => {
    for (const path of ['/admin/reports', '/admin/photos/pending', '/api/admin/stats', '/admin/statistics', '/admin/users/search?q=a']) {
      const res = await t.api<{ error: string }>(admin, 'GET', path);
      expect({ path, status: res.status }).toEqual({ path, status: 503 });
      expect(res.body.error).toMatch(/unavailable/);
    }
  });
});

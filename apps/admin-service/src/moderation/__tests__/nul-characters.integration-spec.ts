import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@mate/contracts';
import { NulTextMessages } from '@mate/server-kit';
import type { SignedIn } from '@mate/server-kit/testing';
import { startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';

/**
 * Issue 24 item 3: a NUL (U+0000) in the audit search, a suspension reason or a report's
 * resolution reached PostgreSQL, which refuses it in text and jsonb: the answer was 503 with an
 * error-level log. The kit now refuses it in every service before any handler (400 `{ error }`).
 */
describe('admin-service: a NUL character is a 400 naming where it was, never a 503', () => {
  let t: AdminTestBed;
  let admin: SignedIn;
  const member = randomUUID();

  beforeAll(async () => {
    t = await startAdminTestBed('admin_nul_characters');
    admin = await t.admin();
  });

  afterAll(() => t?.close());

  const refused = (error: string) => ({ status: 400, body: { error, code: ErrorCode.ValidationFailed } });

  it('in a query string: the audit search and the user search', async () => {
    expect(await t.api(admin, 'GET', '/api/admin/audit?search=ann%00')).toMatchObject(refused(NulTextMessages.queryParameter('search')));
    expect(await t.api(admin, 'GET', '/api/admin/users/search?q=%00ann')).toMatchObject(refused(NulTextMessages.queryParameter('q')));
    // The same search without one is read from the database as before.
    expect(await t.api(admin, 'GET', '/api/admin/audit?search=ann')).toMatchObject({ status: 200, body: { logs: [] } });
  });

  it('in a JSON body: a suspension reason and a report resolution', async () => {
    expect(await t.api(admin, 'POST', `/api/admin/users/${member}/suspend`, { body: { reason: 'spam\u0000' } })).toMatchObject(
      refused(NulTextMessages.bodyField('reason')),
    );
    expect(
      await t.api(admin, 'PATCH', `/api/admin/reports/${randomUUID()}`, { body: { status: 'reviewed', resolution: 'ok\u0000' } }),
    ).toMatchObject(refused(NulTextMessages.bodyField('resolution')));
  });

  it('in a path parameter', async () => {
    expect(await t.api(admin, 'GET', '/api/admin/users/%00')).toMatchObject(refused(NulTextMessages.path));
    expect(await t.api(admin, 'POST', '/api/admin/users/a%00b/suspend', { body: { reason: 'spam' } })).toMatchObject(refused(NulTextMessages.path));
  });

  it('before authentication too: no handler, guard or pipe sees it', async () => {
    expect(await t.api(null, 'GET', '/api/admin/audit?search=%00')).toMatchObject(refused(NulTextMessages.queryParameter('search')));
  });
});

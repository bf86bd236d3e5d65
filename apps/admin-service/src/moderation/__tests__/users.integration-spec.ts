import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AdminErrorCode,
  AUDIT_OUTCOME_REFUSED,
  AuthMessages,
  GdprMessages,
  ROLE_MEMBER,
  SERVICES,
  type AdminCommandResultDto,
  type AdminStatsDto,
  type AdminUserDetailDto,
  type AdminUserSummaryDto,
  type AuditLogPageDto,
  type AuthResponse,
} from '@mate/contracts';
import { call, waitFor, type SignedIn } from '@mate/server-kit/testing';
import { closedServiceUrl, startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';
import { adminEnvFor, sharedInfra, startOwner, type OwnerProcess, type SharedInfra } from '../../__tests__/owner-processes';
import { AuditAuthorBackfill } from '../audit-author-backfill';
import { ADMIN_NOT_A_TARGET, ALREADY_SUSPENDED, NOT_SUSPENDED } from '../users.service';

const UA = 'Mozilla/5.0 (admin-test) users';

/**
 * The account commands end to end: admin-service writes them with their audit entries, the real
 * auth-service's worker carries them out (all four owners run, each in its own process).
 */
describe('admin users against the real auth, profile, matching and safety services', () => {
  let infra: SharedInfra;
  let owners: OwnerProcess[] = [];
  let auth: OwnerProcess;
  let photoDir: string;
  let t: AdminTestBed;
  let admin: SignedIn;

  beforeAll(async () => {
    infra = await sharedInfra('admin_users');
    photoDir = await mkdtemp(path.join(tmpdir(), 'mate-admin-users-'));
    const closed = await closedServiceUrl();
    const [profile, matching, safety] = await Promise.all([
      startOwner(SERVICES.profile, infra, { PHOTO_STORAGE: 'local', PHOTO_DIR: photoDir }),
      startOwner(SERVICES.matching, infra),
      startOwner(SERVICES.safety, infra, { CHAT_SERVICE_URL: closed }),
    ]);
    owners = [profile, matching, safety];
    auth = await startOwner(SERVICES.auth, infra, {
      PROFILE_SERVICE_URL: profile.url,
      MATCHING_SERVICE_URL: matching.url,
      SAFETY_SERVICE_URL: safety.url,
      CHAT_SERVICE_URL: closed,
      CALL_SERVICE_URL: closed,
      NOTIFICATION_SERVICE_URL: closed,
    });
    owners.push(auth);
    t = await startAdminTestBed('admin_users', { env: adminEnvFor(infra, { AUTH: auth, PROFILE: profile, MATCHING: matching, SAFETY: safety }) });
    admin = await t.admin();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await Promise.allSettled(owners.map((o) => o.stop()));
    await infra?.cleanup();
    if (photoDir) await rm(photoDir, { recursive: true, force: true });
  });

  /** An account made through auth-service's own API, with its session. */
  async function anAccount(name: string): Promise<{ userId: string; token: string; email: string }> {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${randomUUID().slice(0, 8)}@mate.test`;
    const res = await call<AuthResponse>(auth.url, 'POST', '/api/auth/register', { body: { email, password: 'Correct-Horse-9', name, age: 35 } });
    expect(res.status).toBe(201);
    return { userId: res.body.user.id, token: res.body.token, email };
  }

  const detail = (userId: string) => t.api<AdminUserDetailDto>(admin, 'GET', `/admin/users/${userId}`);
  const audit = async (auditId: string) => (await t.bed.dataSource.query('SELECT * FROM audit_log WHERE id = $1', [auditId]))[0] as Record<string, unknown>;

  it('shows a member composed from all four parts (nothing unavailable) and finds them by name or email', async () => {
    const m = await anAccount('Detail Person');
    const res = await waitFor(
      async () => {
        const r = await detail(m.userId);
        return r.status === 200 && r.body.age !== null ? r : null;
      },
      { what: 'profile-service to have the profile' },
    );
    expect(res.body).toMatchObject({
      id: m.userId,
      name: 'Detail Person',
      email: m.email,
      age: 35,
      role: 'member',
      isSuspended: false,
      isActive: true,
      suspendedAt: null,
      matchCount: 0,
      reportsMade: 0,
      reportsReceived: 0,
      unavailable: [],
    });
    const byEmail = await t.api<AdminUserSummaryDto[]>(admin, 'GET', `/api/admin/users/search?q=${encodeURIComponent(m.email.toUpperCase())}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.map((u) => u.id)).toEqual([m.userId]);
    const byName = await t.api<AdminUserSummaryDto[]>(admin, 'GET', '/admin/users/search?q=detail%20pers&limit=100');
    expect(byName.body.map((u) => u.id)).toContain(m.userId);
    expect((await detail(randomUUID())).status).toBe(404);
    expect((await detail(randomUUID())).body).toMatchObject({ error: 'User not found' });
  });

  it('suspends (reason required, trimmed): the member is refused at once; audited; a second suspend is 409', async () => {
    const m = await anAccount('Suspend Person');
    const res = await t.api<AdminCommandResultDto>(admin, 'POST', `/api/admin/users/${m.userId}/suspend`, {
      body: { reason: '  Spamming members  ' },
      headers: { 'user-agent': UA },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ applied: true, auditId: expect.any(String) });
    expect((await detail(m.userId)).body).toMatchObject({ isSuspended: true, isActive: false, suspensionReason: 'Spamming members', suspendedAt: expect.any(String) });
    expect((await call(auth.url, 'GET', '/api/auth/me', { token: m.token })).status).toBe(401);
    expect((await call(t.bed.url, 'GET', '/admin/reports', { token: m.token })).status).toBe(401);
    const login = await call<{ error: string }>(auth.url, 'POST', '/api/auth/login', { body: { email: m.email, password: 'Correct-Horse-9' } });
    expect(login.body.error).toBe(AuthMessages.accountSuspended);
    const row = await audit(res.body.auditId);
    expect(row).toMatchObject({
      action: 'suspend_user',
      admin_id: admin.userId,
      target_user_id: m.userId,
      resource_type: 'user',
      resource_id: m.userId,
      user_agent: UA,
      details: { reason: 'Spamming members' },
    });
    expect(row.ip_address).toMatch(/127\.0\.0\.1/);
    const again = await t.api<{ error: string }>(admin, 'POST', `/admin/users/${m.userId}/suspend`, { body: { reason: 'Again' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: ALREADY_SUSPENDED, code: AdminErrorCode.AlreadySuspended });
  });

  it('unsuspends a suspended member (sign-in works again), audited; unsuspending a member who is not suspended is 409', async () => {
    const m = await anAccount('Unsuspend Person');
    const notYet = await t.api<{ error: string }>(admin, 'POST', `/admin/users/${m.userId}/unsuspend`);
    expect(notYet.status).toBe(409);
    expect(notYet.body).toMatchObject({ error: NOT_SUSPENDED, code: AdminErrorCode.NotSuspended });
    expect((await t.api(admin, 'POST', `/admin/users/${m.userId}/suspend`, { body: { reason: 'Brief' } })).status).toBe(200);
    const res = await t.api<AdminCommandResultDto>(admin, 'POST', `/admin/users/${m.userId}/unsuspend`);
    expect(res.status).toBe(200);
    expect((await detail(m.userId)).body).toMatchObject({ isSuspended: false, suspensionReason: null });
    const login = await call(auth.url, 'POST', '/api/auth/login', { body: { email: m.email, password: 'Correct-Horse-9' } });
    expect(login.status).toBe(200);
    expect(await audit(res.body.auditId)).toMatchObject({ action: 'unsuspend_user', target_user_id: m.userId, details: {} });
  });

  it('deletes a member (the account deletion runs; then User not found), audited', async () => {
    const m = await anAccount('Delete Person');
    const res = await t.api<AdminCommandResultDto>(admin, 'DELETE', `/api/admin/users/${m.userId}`);
    expect([200, 202]).toContain(res.status);
    expect(await audit(res.body.auditId)).toMatchObject({ action: 'delete_user', target_user_id: m.userId, resource_id: m.userId });
    await waitFor(async () => (await detail(m.userId)).status === 404, { what: 'the account to be gone' });
    expect((await t.api(admin, 'DELETE', `/admin/users/${m.userId}`)).status).toBe(404);
  });

  it('shows statistics from all three owners', async () => {
    const res = await t.api<AdminStatsDto>(admin, 'GET', '/api/admin/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      users: { total: expect.any(Number), active: expect.any(Number), suspended: expect.any(Number) },
      reports: { total: expect.any(Number), pending: expect.any(Number), byReason: expect.any(Array) },
      matches: { total: expect.any(Number) },
    });
    expect(res.body.users.total).toBeGreaterThanOrEqual(3);
    expect((await t.api(admin, 'GET', '/admin/statistics')).body).toEqual(res.body);
  });

  it("lists the audit log with the target's name and email, and finds entries by the target's email", async () => {
    const m = await anAccount('Audit Person');
    const done = await t.api<AdminCommandResultDto>(admin, 'POST', `/admin/users/${m.userId}/suspend`, { body: { reason: 'For the log' } });
    const page = await t.api<AuditLogPageDto>(admin, 'GET', `/api/admin/audit?search=${encodeURIComponent(m.email)}`);
    expect(page.status).toBe(200);
    expect(page.body.logs.map((l) => l.id)).toEqual([done.body.auditId]);
    expect(page.body.logs[0]).toMatchObject({
      action: 'suspend_user',
      targetUser: { id: m.userId, name: 'Audit Person', email: m.email },
      admin: { id: admin.userId },
      details: { reason: 'For the log' },
    });
  });
  /**
   * A second admin, made with auth-service's own command (`npm run admin:grant`), with a verified
   * session of theirs that the command made admin at once like any live one.
   */
  async function anAdmin(name: string): Promise<{ userId: string; token: string; email: string; signedIn: SignedIn }> {
    const account = await anAccount(name);
    const signedIn = await t.bed.signIn(account.userId, ROLE_MEMBER);
    await auth.command('grant-admin', [account.email]);
    return { ...account, signedIn };
  }

  const refusedEntries = async (targetUserId: string) =>
    (await t.bed.dataSource.query(`SELECT action, admin_id, details FROM audit_log WHERE target_user_id = $1 ORDER BY created_at`, [targetUserId])) as {
      action: string;
      admin_id: string;
      details: Record<string, unknown>;
    }[];

  it('refuses to suspend, unsuspend or delete another admin (403, audited as refused) until the role is revoked (issue 24)', async () => {
    const other = await anAdmin('Other Admin');
    const attempts = [
      ['POST', `/api/admin/users/${other.userId}/suspend`, { reason: 'Lock them out' }, 'suspend_user'],
      ['POST', `/admin/users/${other.userId}/unsuspend`, undefined, 'unsuspend_user'],
      ['DELETE', `/api/admin/users/${other.userId}`, undefined, 'delete_user'],
    ] as const;
    for (const [method, path, body] of attempts) {
      const res = await t.api<{ error: string }>(admin, method, path, { body });
      expect({ path, status: res.status, body: res.body }).toMatchObject({
        path,
        status: 403,
        body: { error: ADMIN_NOT_A_TARGET, code: AdminErrorCode.AdminNotATarget },
      });
    }
    expect(await refusedEntries(other.userId)).toEqual(
      attempts.map(([, , body, action]) => ({
        action,
        admin_id: admin.userId,
        details: { ...(body ?? {}), outcome: AUDIT_OUTCOME_REFUSED, error: ADMIN_NOT_A_TARGET },
      })),
    );
    expect((await detail(other.userId)).body).toMatchObject({ role: 'admin', isSuspended: false });
    expect((await call(auth.url, 'GET', '/api/auth/me', { token: other.token })).status).toBe(200);
    expect((await t.api(other.signedIn, 'GET', '/admin/reports')).status).toBe(200);

    // `npm run admin:revoke`: a member again, at once on the live session (the admin API refuses it), and a target like any.
    await auth.command('revoke-admin', [other.email]);
    expect((await t.api(other.signedIn, 'GET', '/admin/reports')).status).toBe(403);
    const suspended = await t.api<AdminCommandResultDto>(admin, 'POST', `/admin/users/${other.userId}/suspend`, { body: { reason: 'Now a member' } });
    expect(suspended.status).toBe(200);
    expect((await detail(other.userId)).body).toMatchObject({ role: 'member', isSuspended: true });
  }, 120_000);

  it("keeps the acting admin's name and email after they delete their account, and shows a deleted target as deleted (issue 24)", async () => {
    const ada = await anAdmin('Ada Author');
    const member = await anAccount('Gone Member');
    const deleted = await t.api<AdminCommandResultDto>(ada.signedIn, 'DELETE', `/admin/users/${member.userId}`);
    expect([200, 202]).toContain(deleted.status);
    await waitFor(async () => (await detail(member.userId)).status === 404, { what: 'the member to be gone' });

    // An admin cannot delete their own account while they hold the role; revoked, they can.
    const own = await call<{ error: string }>(auth.url, 'POST', '/api/gdpr/delete-account', { token: ada.token, body: { confirmEmail: ada.email } });
    expect(own).toMatchObject({ status: 403, body: { error: GdprMessages.adminCannotDeleteAccount } });
    await auth.command('revoke-admin', [ada.email]);
    expect((await call(auth.url, 'POST', '/api/gdpr/delete-account', { token: ada.token, body: { confirmEmail: ada.email } })).status).toBe(200);
    await waitFor(async () => (await detail(ada.userId)).status === 404, { what: "Ada's account to be gone" });

    const page = await t.api<AuditLogPageDto>(admin, 'GET', `/api/admin/audit?search=${encodeURIComponent(ada.email)}`);
    expect(page.status).toBe(200);
    expect(page.body.logs).toEqual([
      expect.objectContaining({
        id: deleted.body.auditId,
        action: 'delete_user',
        admin: { id: ada.userId, name: 'Ada Author', email: ada.email, deleted: true },
        targetUser: { id: member.userId, name: null, email: null, deleted: true },
      }),
    ]);
  }, 120_000);

  it('gives entries written without their author the admin still known, and lets nothing else of an entry change (issue 24)', async () => {
    const known = await anAccount('Known Author');
    const [id, other] = [randomUUID(), randomUUID()];
    for (const [entryId, adminId] of [[id, known.userId], [other, randomUUID()]])
      await t.bed.dataSource.query(
        `INSERT INTO audit_log (id, action, admin_id, target_user_id, resource_type, resource_id, details) VALUES ($1, 'suspend_user', $2::uuid, NULL, 'user', $2::text, '{}')`,
        [entryId, adminId],
      );

    expect(await t.bed.app.get(AuditAuthorBackfill).run()).toBeGreaterThanOrEqual(1);

    expect(await audit(id)).toMatchObject({ admin_name: 'Known Author', admin_email: known.email });
    expect(await audit(other)).toMatchObject({ admin_name: null, admin_email: null }); // an admin nobody knows any more
    const refused = /audit_log is append-only/;
    await expect(t.bed.dataSource.query(`UPDATE audit_log SET admin_name = 'Someone Else' WHERE id = $1`, [id])).rejects.toThrow(refused);
    await expect(t.bed.dataSource.query(`UPDATE audit_log SET details = '{"x":1}', admin_name = 'Y' WHERE id = $1`, [other])).rejects.toThrow(refused);
    await expect(t.bed.dataSource.query('DELETE FROM audit_log WHERE id = $1', [id])).rejects.toThrow(refused);
  });
});

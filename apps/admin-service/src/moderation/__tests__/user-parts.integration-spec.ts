import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICES, type AdminUserDetailDto } from '@mate/contracts';
import { aProfile, call, waitFor, type SignedIn } from '@mate/server-kit/testing';
import { closedServiceUrl, startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';
import { adminEnvFor, sharedInfra, startOwner, type OwnerProcess, type SharedInfra } from '../../__tests__/owner-processes';

/**
 * User detail composed from the real profile, matching and safety services while auth-service does
 * not answer (its URL a closed port): the account's fields are N/A, the rest is shown, never a 500.
 */
describe('admin user detail with one part not answering (real profile, matching, safety; auth away)', () => {
  let infra: SharedInfra;
  let owners: OwnerProcess[] = [];
  let profile: OwnerProcess;
  let safety: OwnerProcess;
  let photoDir: string;
  let t: AdminTestBed;
  let admin: SignedIn;

  beforeAll(async () => {
    infra = await sharedInfra('admin_user_parts');
    photoDir = await mkdtemp(path.join(tmpdir(), 'mate-admin-parts-'));
    const closed = await closedServiceUrl();
    let matching: OwnerProcess;
    [profile, matching, safety] = await Promise.all([
      startOwner(SERVICES.profile, infra, { PHOTO_STORAGE: 'local', PHOTO_DIR: photoDir }),
      startOwner(SERVICES.matching, infra),
      startOwner(SERVICES.safety, infra, { CHAT_SERVICE_URL: closed }),
    ]);
    owners = [profile, matching, safety];
    t = await startAdminTestBed('admin_user_parts', {
      env: { ...adminEnvFor(infra, { PROFILE: profile, MATCHING: matching, SAFETY: safety }), AUTH_SERVICE_URL: closed },
    });
    admin = await t.admin();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await Promise.allSettled(owners.map((o) => o.stop()));
    await infra?.cleanup();
    if (photoDir) await rm(photoDir, { recursive: true, force: true });
  });

  it('shows the profile, match and report parts and the account as N/A (named in unavailable)', async () => {
    const userId = randomUUID();
    await profile.deliver('user.registered', { userId, email: `${userId}@mate.test`, name: 'Parts Member', age: 41, registeredAt: new Date().toISOString() });
    // The member is reported once (safety's own API), so the safety part has something to count.
    const reporter = await t.member();
    for (const id of [userId, reporter.userId]) {
      await safety.deliver('profile.updated', aProfile(id, 'Someone'), { type: 'profile', id, version: 1 });
    }
    await waitFor(
      async () => (await call(safety.url, 'POST', `/api/safety/report/${userId}`, { token: reporter.token, body: { reason: 'spam' } })).status === 201,
      { what: 'the report' },
    );
    const detail = await waitFor(
      async () => {
        const res = await t.api<AdminUserDetailDto>(admin, 'GET', `/api/admin/users/${userId}`);
        return res.status === 200 && res.body.name !== null ? res : null;
      },
      { what: 'profile-service to create the profile' },
    );
    expect(detail.body).toMatchObject({
      id: userId,
      name: 'Parts Member',
      age: 41,
      photos: [],
      matchCount: 0,
      reportsMade: 0,
      reportsReceived: 1,
      email: null,
      role: null,
      createdAt: null,
      lastActive: null,
      isVerified: null,
      isActive: null,
      isSuspended: null,
      suspendedAt: null,
      suspensionReason: null,
      unavailable: ['account'],
    });
  });

  it('answers statistics 503 naming the part that did not answer', async () => {
    const res = await t.api<{ error: string }>(admin, 'GET', '/admin/statistics');
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('Statistics are unavailable right now: users (auth-service) did not answer');
  });

  it('refuses suspend, unsuspend and delete with 503 while auth cannot say the account exists, writing nothing', async () => {
    const userId = randomUUID();
    for (const [method, suffix, body] of [
      ['POST', '/suspend', { reason: 'x' }],
      ['POST', '/unsuspend', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const res = await t.api(admin, method, `/admin/users/${userId}${suffix}`, { body });
      expect({ suffix, status: res.status }).toEqual({ suffix, status: 503 });
    }
    expect(await t.bed.dataSource.query('SELECT 1 FROM audit_log WHERE target_user_id = $1', [userId])).toEqual([]);
  });
});

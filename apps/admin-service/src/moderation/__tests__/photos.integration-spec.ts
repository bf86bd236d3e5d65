import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  AdminErrorCode,
  INTERNAL_ADMIN_PATHS,
  INTERNAL_TOKEN_HEADER,
  SERVICES,
  type AdminCommandResultDto,
  type AdminPhotoPart,
  type PendingPhotosResponseDto,
} from '@mate/contracts';
import { call, waitFor, type SignedIn } from '@mate/server-kit/testing';
import { ADMIN_TEST_INTERNAL_TOKEN, startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';
import { adminEnvFor, sharedInfra, startOwner, type OwnerProcess, type SharedInfra } from '../../__tests__/owner-processes';
import { PHOTO_ALREADY_REVIEWED } from '../photos.service';

const UA = 'Mozilla/5.0 (admin-test) photos';

describe('admin photo review against the real profile-service (queue, approve, reject, the audit entry)', () => {
  // Each test uploads and waits for the real classifier's score (the first one loads its model).
  jest.setTimeout(90_000);

  let infra: SharedInfra;
  let profile: OwnerProcess;
  let photoDir: string;
  let t: AdminTestBed;
  let admin: SignedIn;

  beforeAll(async () => {
    infra = await sharedInfra('admin_photos');
    photoDir = await mkdtemp(path.join(tmpdir(), 'mate-admin-photos-'));
    profile = await startOwner(SERVICES.profile, infra, { PHOTO_STORAGE: 'local', PHOTO_DIR: photoDir });
    t = await startAdminTestBed('admin_photos', { env: adminEnvFor(infra, { PROFILE: profile }) });
    admin = await t.admin();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await profile?.stop();
    await infra?.cleanup();
    if (photoDir) await rm(photoDir, { recursive: true, force: true });
  });

  /** A verified member profile-service knows (user.registered and user.verified), with a session. */
  async function aMember(name: string): Promise<SignedIn> {
    const userId = randomUUID();
    await profile.deliver('user.registered', { userId, email: `${userId}@mate.test`, name, age: 33, registeredAt: new Date().toISOString() });
    await profile.deliver('user.verified', { userId, verifiedAt: new Date().toISOString() });
    const session = await t.bed.signIn(userId);
    await waitFor(async () => (await call(profile.url, 'GET', '/api/profile/me', { token: session.token })).status === 200, {
      what: 'profile-service to create the profile',
    });
    return session;
  }

  /** A photo uploaded through profile-service's own API, once it is in the admin queue. */
  async function aPhoto(member: SignedIn): Promise<string> {
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 90, g: 150, b: 200 } } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'p.jpg');
    const res = await fetch(`${profile.url}/api/photos/upload`, { method: 'POST', headers: { authorization: `Bearer ${member.token}` }, body: form });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { photo: { id: string } }).photo.id;
    // Scored: the classifier's first photo loads its model, which keeps profile-service busy for a few seconds.
    await waitFor(
      async () => (await t.api<PendingPhotosResponseDto>(admin, 'GET', '/admin/photos/pending')).body.photos?.some((p) => p.id === id && p.riskScore !== null),
      { what: `photo ${id} scored and in the queue`, timeoutMs: 60_000 },
    );
    return id;
  }

  const photoState = async (id: string) =>
    (await call<AdminPhotoPart>(profile.url, 'GET', INTERNAL_ADMIN_PATHS.photo(id), { headers: { [INTERNAL_TOKEN_HEADER]: ADMIN_TEST_INTERNAL_TOKEN } })).body;

  async function auditRow(auditId: string) {
    const [row] = await t.bed.dataSource.query('SELECT * FROM audit_log WHERE id = $1', [auditId]);
    return row as Record<string, unknown>;
  }

  it("shows the queue with the owner's name, age and gender (auth away: email null) and the day's figures", async () => {
    const member = await aMember('Queue Owner');
    const id = await aPhoto(member);
    const res = await t.api<PendingPhotosResponseDto>(admin, 'GET', '/api/admin/photos/pending');
    expect(res.status).toBe(200);
    expect(res.body.photos.find((p) => p.id === id)).toMatchObject({ id, userId: member.userId, userName: 'Queue Owner', userAge: 33, userEmail: null });
    expect(res.body.stats).toEqual({ totalPending: expect.any(Number), approvedToday: expect.any(Number), rejectedToday: expect.any(Number) });
  });

  it('approves a pending photo (200 applied), audited; a second decision is 409', async () => {
    const member = await aMember('Approved Owner');
    const id = await aPhoto(member);
    const before = (await t.api<PendingPhotosResponseDto>(admin, 'GET', '/admin/photos/pending')).body.stats.approvedToday;
    const res = await t.api<AdminCommandResultDto>(admin, 'POST', `/admin/photos/${id}/approve`, { headers: { 'user-agent': UA } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ applied: true, auditId: expect.any(String) });
    expect((await photoState(id)).status).toBe('approved');
    const after = await t.api<PendingPhotosResponseDto>(admin, 'GET', '/admin/photos/pending');
    expect(after.body.photos.some((p) => p.id === id)).toBe(false);
    expect(after.body.stats.approvedToday).toBe(before + 1);
    const row = await auditRow(res.body.auditId);
    expect(row).toMatchObject({ action: 'approve_photo', admin_id: admin.userId, target_user_id: member.userId, resource_type: 'photo', resource_id: id, user_agent: UA });
    expect(row.ip_address).toMatch(/127\.0\.0\.1/);
    const again = await t.api<{ error: string }>(admin, 'POST', `/api/admin/photos/${id}/reject`, { body: { reason: 'Changed my mind' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: PHOTO_ALREADY_REVIEWED, code: AdminErrorCode.PhotoAlreadyReviewed });
  });

  it('rejects a pending photo with its reason (trimmed), audited; without a reason 400 and nothing written', async () => {
    const member = await aMember('Rejected Owner');
    const id = await aPhoto(member);
    const missing = await t.api<{ error: string }>(admin, 'POST', `/admin/photos/${id}/reject`, { body: { reason: '  ' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Please provide a rejection reason');
    expect(await t.bed.dataSource.query('SELECT 1 FROM audit_log WHERE resource_id = $1', [id])).toEqual([]);
    const res = await t.api<AdminCommandResultDto>(admin, 'POST', `/api/admin/photos/${id}/reject`, { body: { reason: '  Not a photo of you  ' } });
    expect(res.status).toBe(200);
    expect((await photoState(id)).status).toBe('rejected');
    expect(await auditRow(res.body.auditId)).toMatchObject({
      action: 'reject_photo',
      target_user_id: member.userId,
      resource_id: id,
      details: { reason: 'Not a photo of you', riskScore: expect.any(Number) },
    });
    expect((await t.api(admin, 'POST', `/admin/photos/${id}/approve`)).status).toBe(409);
  });

  it('lets only one of two admins deciding the same photo at once win (the other 409, one audit entry)', async () => {
    const id = await aPhoto(await aMember('Raced Owner'));
    const other = await t.admin();
    const answers = await Promise.all([
      t.api(admin, 'POST', `/admin/photos/${id}/approve`),
      t.api(other, 'POST', `/admin/photos/${id}/reject`, { body: { reason: 'Blurry' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await t.bed.dataSource.query('SELECT count(*)::int AS n FROM audit_log WHERE resource_id = $1', [id])).toEqual([{ n: 1 }]);
  });

  it('answers 404 for a photo that does not exist, writing nothing', async () => {
    const id = randomUUID();
    const res = await t.api<{ error: string }>(admin, 'POST', `/admin/photos/${id}/approve`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Photo not found');
    expect(await t.bed.dataSource.query('SELECT 1 FROM audit_log WHERE resource_id = $1', [id])).toEqual([]);
  });
});

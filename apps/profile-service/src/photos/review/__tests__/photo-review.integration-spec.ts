import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import {
  INTERNAL_TOKEN_HEADER,
  QueueName,
  type PendingPhotosPart,
  type PhotoAdminCommand,
  type PhotoScores,
} from '@mate/contracts';
import { BaseServiceEnv, OutboxService } from '@mate/server-kit';
import { startProfileTestBed, waitFor, type ProfileTestBed } from '../../../__tests__/test-app';
import { PHOTO_CLASSIFIER, type PhotoClassifier } from '../../classifier/photo-classifier';
import { PhotoReviewService } from '../photo-review.service';

const SAFE: PhotoScores = { Drawing: 0.05, Hentai: 0.01, Neutral: 0.9, Porn: 0.02, Sexy: 0.02 };
const RISKY: PhotoScores = { Drawing: 0.02, Hentai: 0.03, Neutral: 0.1, Porn: 0.7, Sexy: 0.15 };
const MEDIUM: PhotoScores = { Drawing: 0.1, Hentai: 0.05, Neutral: 0.1, Porn: 0.3, Sexy: 0.45 };
const ADMIN_ID = '00000000-0000-4000-8000-00000000a0a0';
const INTERNAL = { [INTERNAL_TOKEN_HEADER]: new BaseServiceEnv().INTERNAL_TOKEN };

/** The classifier's answer is set by each test: the real one is tested on its own (photo-classifier.spec). */
class FakeClassifier implements PhotoClassifier {
  next: PhotoScores = SAFE;
  async score(): Promise<PhotoScores> {
    return this.next;
  }
}

async function jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 90, g: 150, b: 200 } } })
    .jpeg()
    .toBuffer();
}

describe('photo review (issue 13): scan, hide, approve, reject, admin reads', () => {
  let bed: ProfileTestBed;
  const classifier = new FakeClassifier();
  const server = () => bed.app.getHttpServer();

  beforeAll(async () => {
    bed = await startProfileTestBed('photo_review', {}, [{ provide: PHOTO_CLASSIFIER, useValue: classifier }]);
  });
  afterAll(() => bed?.close());

  async function onboarded() {
    const m = await bed.member();
    await request(server()).post('/api/profile/me/complete-onboarding').set('Authorization', m.authorization).expect(200);
    return m;
  }

  async function upload(member: { authorization: string }, scores: PhotoScores): Promise<string> {
    classifier.next = scores;
    const res = await request(server())
      .post('/api/photos/upload')
      .set('Authorization', member.authorization)
      .attach('photo', await jpeg(), 'p.jpg')
      .expect(201);
    const id = res.body.photo.id as string;
    await waitFor(() => row(id).then((r) => r?.scanned_at), { what: `photo ${id} scored` });
    return id;
  }

  async function row(id: string) {
    const [r] = await bed.dataSource.query(
      'SELECT moderation_status, hidden_from_members, risk_score, scores, scanned_at, rejection_reason, moderated_at, is_primary, storage_key FROM photos WHERE id = $1',
      [id],
    );
    return r as
      | {
          moderation_status: string;
          hidden_from_members: boolean;
          risk_score: number | null;
          scores: PhotoScores | null;
          scanned_at: Date | null;
          rejection_reason: string | null;
          moderated_at: Date | null;
          is_primary: boolean;
          storage_key: string | null;
        }
      | undefined;
  }

  const seenBy = async (viewer: { authorization: string }, owner: { userId: string }) =>
    (await request(server()).get(`/api/profile/${owner.userId}`).set('Authorization', viewer.authorization).expect(200))
      .body as { photos: { id: string }[]; profilePicture: string | null };

  const ownPhotos = async (owner: { authorization: string }) =>
    ((await request(server()).get('/api/photos').set('Authorization', owner.authorization).expect(200)).body as {
      id: string;
      isPrimary: boolean;
    }[]).map((p) => p.id);

  const moderated = async (userId: string) =>
    (await bed.eventsOf(userId)).filter((e) => e.name === 'photo.moderated').map((e) => e.payload);
  const lastProfileUpdate = async (userId: string) =>
    (await bed.eventsOf(userId)).filter((e) => e.name === 'profile.updated').at(-1)?.payload as
      | { photos: { id: string }[]; hasPhoto: boolean; profilePicture: string | null }
      | undefined;

  async function command(cmd: PhotoAdminCommand) {
    const outbox = bed.app.get(OutboxService);
    await bed.dataSource.transaction((m) => outbox.enqueueJob(m, QueueName.PhotoAdmin, cmd));
  }

  const pending = async () =>
    (await request(server()).get('/internal/admin/photos/pending').set(INTERNAL).expect(200)).body as PendingPhotosPart;

  it('scores an upload once through the queued job, stores the scores and keeps a low-risk photo visible', async () => {
    const [owner, viewer] = [await onboarded(), await onboarded()];
    const id = await upload(owner, SAFE);
    const r = await row(id);
    expect(r).toMatchObject({ moderation_status: 'pending', hidden_from_members: false, scores: SAFE });
    expect(r?.risk_score).toBeCloseTo(0.05, 5);
    expect((await seenBy(viewer, owner)).photos.map((p) => p.id)).toEqual([id]);
    expect(await moderated(owner.userId)).toEqual([
      expect.objectContaining({ photoId: id, outcome: 'scored', hidden: false, reason: null }),
    ]);
    // The same job again (a redelivery) scores nothing twice.
    expect(await bed.app.get(PhotoReviewService).scan(id)).toBe('skipped');
  });

  it('hides a photo above the threshold from other members (not from its owner) until an admin approves it', async () => {
    const [owner, viewer] = [await onboarded(), await onboarded()];
    const safe = await upload(owner, SAFE);
    const risky = await upload(owner, RISKY);
    expect(await row(risky)).toMatchObject({ hidden_from_members: true });
    expect(await ownPhotos(owner)).toEqual([safe, risky]);
    expect((await seenBy(viewer, owner)).photos.map((p) => p.id)).toEqual([safe]);
    expect((await lastProfileUpdate(owner.userId))?.photos.map((p) => p.id)).toEqual([safe]);

    const queue = await pending();
    const mine = queue.photos.filter((p) => p.userId === owner.userId);
    expect(mine.map((p) => p.id)).toEqual([risky, safe]);
    expect(mine[0]).toMatchObject({ scores: RISKY, hiddenFromMembers: true, url: `/api/photos/files/${risky}/large.webp` });
    expect(mine[0].riskScore).toBeCloseTo(0.88, 5);

    await command({ kind: 'approve', photoId: risky, adminId: ADMIN_ID });
    await waitFor(() => row(risky).then((r) => r?.moderation_status === 'approved'), { what: 'approval' });
    expect(await row(risky)).toMatchObject({ hidden_from_members: false });
    expect((await row(risky))?.moderated_at).not.toBeNull();
    expect((await seenBy(viewer, owner)).photos.map((p) => p.id)).toEqual([safe, risky]);
    expect((await lastProfileUpdate(owner.userId))?.photos.map((p) => p.id)).toEqual([safe, risky]);
    expect(await moderated(owner.userId)).toContainEqual(
      expect.objectContaining({ photoId: risky, outcome: 'approved', hidden: false }),
    );
    expect((await pending()).photos.map((p) => p.id)).not.toContain(risky);
    expect((await pending()).stats.approvedToday).toBeGreaterThanOrEqual(1);

    // Idempotent, and only a pending photo moves: approving again does nothing, rejecting is refused.
    const review = bed.app.get(PhotoReviewService);
    expect(await review.decide({ kind: 'approve', photoId: risky, adminId: ADMIN_ID })).toBe('already');
    expect(await review.decide({ kind: 'reject', photoId: risky, adminId: ADMIN_ID, reason: 'late' })).toBe('refused');
    expect(await row(risky)).toMatchObject({ moderation_status: 'approved', rejection_reason: null });
  });

  it('sorts the queue riskiest first, unscored photos after scored ones', async () => {
    const owner = await onboarded();
    const low = await upload(owner, SAFE);
    const mid = await upload(owner, MEDIUM);
    const high = await upload(owner, RISKY);
    await bed.dataSource.query('UPDATE photos SET scores = NULL, risk_score = NULL, scanned_at = NULL WHERE id = $1', [low]);
    const queue = await pending();
    const ids = queue.photos.map((p) => p.id);
    expect(ids.indexOf(high)).toBeLessThan(ids.indexOf(mid));
    expect(ids.at(-1)).toBe(low);
    const risks = queue.photos.map((p) => p.riskScore).filter((r): r is number => r !== null);
    expect(risks).toEqual([...risks].sort((a, b) => b - a));
    expect(queue.stats.totalPending).toBe(queue.photos.length);
  });

  it('rejecting hides the photo everywhere at once, deletes its files, reassigns the primary and says why', async () => {
    const [owner, viewer] = [await onboarded(), await onboarded()];
    const first = await upload(owner, RISKY);
    const second = await upload(owner, SAFE);
    expect(await row(first)).toMatchObject({ is_primary: true });
    const folder = path.join(bed.photoDir, String((await row(first))?.storage_key));
    expect(await readdir(folder)).toHaveLength(3);

    await command({ kind: 'reject', photoId: first, adminId: ADMIN_ID, reason: 'Nudity is not allowed' });
    await waitFor(() => row(first).then((r) => r?.moderation_status === 'rejected'), { what: 'rejection' });
    await waitFor(
      () => readdir(folder).then((f) => f.length === 0, () => true),
      { what: 'files deleted' },
    );
    expect(await row(first)).toMatchObject({ rejection_reason: 'Nudity is not allowed', is_primary: false });
    expect(await row(second)).toMatchObject({ is_primary: true });
    expect(await ownPhotos(owner)).toEqual([second]);
    expect((await seenBy(viewer, owner)).photos.map((p) => p.id)).toEqual([second]);
    await request(server()).get(`/api/photos/files/${first}/large.webp`).expect(404);
    expect((await lastProfileUpdate(owner.userId))?.photos.map((p) => p.id)).toEqual([second]);
    expect(await moderated(owner.userId)).toContainEqual(
      expect.objectContaining({ photoId: first, outcome: 'rejected', hidden: true, reason: 'Nudity is not allowed' }),
    );
    const photo = (await request(server()).get(`/internal/admin/photos/${first}`).set(INTERNAL).expect(200)).body;
    expect(photo).toMatchObject({ id: first, userId: owner.userId, status: 'rejected', url: null });
    expect((await pending()).stats.rejectedToday).toBeGreaterThanOrEqual(1);

    const review = bed.app.get(PhotoReviewService);
    const events = (await moderated(owner.userId)).length;
    expect(await review.decide({ kind: 'reject', photoId: first, adminId: ADMIN_ID, reason: 'again' })).toBe('already');
    expect(await review.decide({ kind: 'approve', photoId: first, adminId: ADMIN_ID })).toBe('refused');
    expect((await moderated(owner.userId)).length).toBe(events);
    expect(await row(first)).toMatchObject({ moderation_status: 'rejected', rejection_reason: 'Nudity is not allowed' });
  });

  it('scores photos that were never scored (scan-photos: seeded rows, older uploads), once', async () => {
    const owner = await onboarded();
    const id = await upload(owner, SAFE);
    await bed.dataSource.query('UPDATE photos SET scores = NULL, risk_score = NULL, scanned_at = NULL WHERE id = $1', [id]);
    classifier.next = RISKY;
    const review = bed.app.get(PhotoReviewService);
    expect(await review.scanUnscored()).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toMatchObject({ scores: RISKY, hidden_from_members: true });
    expect(await review.scanUnscored()).toBe(0);
  });

  it('serves admin-service the profile (hidden photos included), summaries and photos, internal callers only', async () => {
    const owner = await onboarded();
    const hidden = await upload(owner, RISKY);
    const part = (await request(server()).get(`/internal/admin/profiles/${owner.userId}`).set(INTERNAL).expect(200)).body;
    expect(part).toMatchObject({ userId: owner.userId, name: 'Ana', age: 29, photos: [{ id: hidden }] });
    const summaries = (
      await request(server())
        .get(`/internal/admin/profiles?ids=${owner.userId},00000000-0000-4000-8000-000000000001`)
        .set(INTERNAL)
        .expect(200)
    ).body;
    expect(summaries).toEqual([{ userId: owner.userId, name: 'Ana', age: 29, gender: null }]);
    await request(server()).get('/internal/admin/profiles?ids=nope').set(INTERNAL).expect(400);
    const many = Array.from({ length: 201 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const tooMany = await request(server()).get(`/internal/admin/profiles?ids=${many.join(',')}`).set(INTERNAL).expect(400);
    expect(tooMany.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
    await request(server()).get('/internal/admin/profiles/00000000-0000-4000-8000-000000000001').set(INTERNAL).expect(404);
    await request(server()).get('/internal/admin/photos/00000000-0000-4000-8000-000000000001').set(INTERNAL).expect(404);
    await request(server()).get('/internal/admin/photos/pending').expect(403);
    await request(server()).get(`/internal/admin/profiles/${owner.userId}`).set('Authorization', owner.authorization).expect(403);
  });
});

describe('photo review with PHOTO_HIDDEN_UNTIL_SCORED (fail safe)', () => {
  let bed: ProfileTestBed;
  let release: () => void = () => undefined;
  /** Holds every score until the test releases it, so the unscored state can be looked at. */
  const gated: PhotoClassifier = {
    score: () => new Promise<PhotoScores>((resolve) => (release = () => resolve(SAFE))),
  };

  beforeAll(async () => {
    bed = await startProfileTestBed('photo_review_fail_safe', { PHOTO_HIDDEN_UNTIL_SCORED: 'on' }, [
      { provide: PHOTO_CLASSIFIER, useValue: gated },
    ]);
  });
  afterAll(async () => {
    release();
    await bed?.close();
  });

  it('hides a new upload from other members (not its owner) until it is scored, then shows it', async () => {
    const server = bed.app.getHttpServer();
    const onboarded = async () => {
      const m = await bed.member();
      await request(server).post('/api/profile/me/complete-onboarding').set('Authorization', m.authorization).expect(200);
      return m;
    };
    const [owner, viewer] = [await onboarded(), await onboarded()];
    const res = await request(server)
      .post('/api/photos/upload')
      .set('Authorization', owner.authorization)
      .attach('photo', await jpeg(), 'p.jpg')
      .expect(201);
    const id = res.body.photo.id as string;
    const seen = async () =>
      ((await request(server).get(`/api/profile/${owner.userId}`).set('Authorization', viewer.authorization).expect(200))
        .body as { photos: { id: string }[] }).photos.map((p) => p.id);
    const own = (await request(server).get('/api/photos').set('Authorization', owner.authorization).expect(200)).body;
    expect(own.map((p: { id: string }) => p.id)).toEqual([id]);
    expect(await seen()).toEqual([]);
    const pending = (await request(server).get('/internal/admin/photos/pending').set(INTERNAL).expect(200))
      .body as PendingPhotosPart;
    expect(pending.photos.find((p) => p.id === id)).toMatchObject({ riskScore: null, scores: null, hiddenFromMembers: true });

    await waitFor(async () => {
      release();
      const [r] = await bed.dataSource.query('SELECT scanned_at FROM photos WHERE id = $1', [id]);
      return r?.scanned_at;
    }, { what: 'the scan' });
    expect(await seen()).toEqual([id]);
    const updates = (await bed.eventsOf(owner.userId)).filter((e) => e.name === 'profile.updated');
    expect((updates.at(-1)?.payload as { photos: { id: string }[] }).photos.map((p) => p.id)).toEqual([id]);
  });
});

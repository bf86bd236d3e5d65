import { randomUUID } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import {
  AuthMessages,
  MAX_PHOTOS,
  ONBOARDING_PHOTO_MAX_BYTES,
  PROFILE_PHOTO_MAX_BYTES,
  ProfileErrorCode,
  ProfileMessages,
  type PhotoDto,
  type PhotoUploadResponse,
} from '@mate/contracts';
import { JWT_SECRET, signIn, startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(120_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

/** A real JPEG of the given size (flat colour with a stripe, so it is not all one value). */
async function jpeg(width = 800, height = 600): Promise<Buffer> {
  const stripe = await sharp({
    create: {
      width: Math.max(1, Math.floor(width / 4)),
      height,
      channels: 3,
      background: { r: 20, g: 40, b: 200 },
    },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 220, g: 120, b: 60 } } })
    .composite([{ input: stripe, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A phone photo: camera make/model and a GPS position in EXIF, stored sideways (orientation 6). */
async function jpegWithGps(): Promise<Buffer> {
  return sharp(await jpeg(400, 200))
    .withExif({
      IFD0: { Make: 'MateCam', Model: 'Spy 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 24/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 7/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/** A real JPEG padded with trailing bytes to exactly `bytes` long (decoders ignore the tail). */
async function jpegOfSize(bytes: number): Promise<Buffer> {
  const image = await jpeg(640, 480);
  return Buffer.concat([image, Buffer.alloc(bytes - image.length)]);
}

describe('photos (real PostgreSQL, Redis and local storage)', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;

  beforeAll(async () => {
    // Parallel uploads of one member race for the last photo slots below; the per-member
    // in-flight bound (2 by default) has its own test in photo-upload-limits.
    bed = await startProfileTestBed('photos', { PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT: '5' });
    server = bed.app.getHttpServer();
  });

  afterAll(async () => {
    await bed?.close();
  });

  function upload(
    member: Member,
    body: Buffer,
    {
      filename = 'photo.jpg',
      contentType = 'image/jpeg',
      path: route = '/api/photos/upload',
      field = 'photo',
    } = {},
  ) {
    return request(server)
      .post(route)
      .set('Authorization', member.authorization)
      .attach(field, body, { filename, contentType });
  }

  async function uploaded(member: Member, body?: Buffer): Promise<PhotoUploadResponse> {
    const res = await upload(member, body ?? (await jpeg()));
    expect(res.status).toBe(201);
    return res.body as PhotoUploadResponse;
  }

  async function photosOf(member: Member): Promise<PhotoDto[]> {
    const res = await request(server)
      .get('/api/photos')
      .set('Authorization', member.authorization)
      .expect(200);
    return res.body as PhotoDto[];
  }

  async function download(url: string) {
    const res = await fetch(`${bed.url}${url}`);
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  }

  /** The files of a photo, in its owner's folder (`photos/<userId>/<photoId>/`). */
  async function storedFiles(userId: string, photoId: string): Promise<string[]> {
    try {
      return (await readdir(path.join(bed.photoDir, 'photos', userId, photoId))).sort();
    } catch {
      return [];
    }
  }

  describe('upload', () => {
    it('stores a JPEG as WebP at three display sizes and answers its URL and PhotoDto', async () => {
      const member = await bed.member();
      const res = await upload(member, await jpeg(2400, 1600), { path: '/api/profile/me/photos/upload' });
      expect(res.status).toBe(201);
      const body = res.body as PhotoUploadResponse;
      expect(body.url).toMatch(/^\/api\/photos\/files\/[0-9a-f-]{36}\/large\.webp$/);
      expect(body.photo).toEqual({ id: expect.any(String), url: body.url, isPrimary: true, order: 0 });
      expect(body.url).toBe(`/api/photos/files/${body.photo.id}/large.webp`);
      expect(await storedFiles(member.userId, body.photo.id)).toEqual(['large.webp', 'medium.webp', 'thumb.webp']);

      const expected = { large: [1200, 800], medium: [600, 400], thumb: [200, 133] };
      for (const [size, [width, height]] of Object.entries(expected)) {
        const { res: file, body: bytes } = await download(`/api/photos/files/${body.photo.id}/${size}.webp`);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-type')).toBe('image/webp');
        expect(file.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
        expect(file.headers.get('x-content-type-options')).toBe('nosniff');
        const meta = await sharp(bytes).metadata();
        expect(meta).toMatchObject({ format: 'webp', width, height });
      }

      const me = await request(server)
        .get('/api/profile/me')
        .set('Authorization', member.authorization)
        .expect(200);
      expect(me.body).toMatchObject({ photos: [body.photo], profilePicture: body.url });
      const events = await bed.eventsOf(member.userId);
      const uploadedEvent = events.find((e) => e.name === 'photo.uploaded');
      expect(uploadedEvent?.payload).toMatchObject({
        photoId: body.photo.id,
        userId: member.userId,
        url: body.url,
      });
      expect(events.filter((e) => e.name === 'profile.updated').at(-1)?.payload).toMatchObject({
        hasPhoto: true,
        profilePicture: body.url,
      });
    });

    it('never enlarges a small picture', async () => {
      const member = await bed.member();
      const { photo } = await uploaded(member, await jpeg(300, 200));
      for (const [size, width] of [
        ['large', 300],
        ['medium', 300],
        ['thumb', 200],
      ] as const) {
        const { body } = await download(`/api/photos/files/${photo.id}/${size}.webp`);
        expect((await sharp(body).metadata()).width).toBe(width);
      }
    });

    it('removes EXIF and the GPS position, after turning the picture upright', async () => {
      const member = await bed.member();
      const original = await jpegWithGps();
      const originalMeta = await sharp(original).metadata();
      expect(originalMeta.exif?.toString('latin1')).toContain('MateCam');
      expect(originalMeta.orientation).toBe(6);

      const { photo } = await uploaded(member, original);
      for (const size of ['large', 'medium', 'thumb']) {
        const stored = await readFile(path.join(bed.photoDir, 'photos', member.userId, photo.id, `${size}.webp`));
        const meta = await sharp(stored).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
        expect(stored.toString('latin1')).not.toMatch(/MateCam|Spy 1|Exif/);
      }
      const { body } = await download(photo.url);
      const served = await sharp(body).metadata();
      expect(served.exif).toBeUndefined();
      // 400×200 stored sideways: upright it is 200 wide and 400 high.
      expect({ width: served.width, height: served.height }).toEqual({ width: 200, height: 400 });
    });

    it('accepts PNG and WebP too', async () => {
      const member = await bed.member();
      const png = await sharp(await jpeg(500, 500))
        .png()
        .toBuffer();
      const webp = await sharp(await jpeg(500, 500))
        .webp()
        .toBuffer();
      expect((await upload(member, png, { filename: 'a.png', contentType: 'image/png' })).status).toBe(201);
      expect((await upload(member, webp, { filename: 'b.webp', contentType: 'image/webp' })).status).toBe(
        201,
      );
      expect((await photosOf(member)).map((p) => p.order)).toEqual([0, 1]);
    });

    it('reads the real type from the bytes: a renamed text file or a GIF is refused', async () => {
      const member = await bed.member();
      const text = Buffer.from('this is not a picture, whatever its name says\n'.repeat(20));
      const gif = await sharp(await jpeg(50, 50))
        .gif()
        .toBuffer();

      for (const [body, filename] of [
        [text, 'holiday.jpg'],
        [gif, 'anim.jpg'],
      ] as const) {
        const profileRes = await upload(member, body, { filename });
        expect(profileRes.status).toBe(400);
        expect(profileRes.body).toMatchObject({ error: ProfileMessages.notAnImage });

        const onboardingRes = await upload(member, body, {
          filename,
          path: '/api/photos/upload?context=onboarding',
        });
        expect(onboardingRes.status).toBe(400);
        expect(onboardingRes.body).toMatchObject({ error: ProfileMessages.onboardingPhotoType });
      }
      expect(await photosOf(member)).toEqual([]);
    });

    it('refuses a JPEG whose body is broken with a 400, not a 500', async () => {
      const member = await bed.member();
      const whole = await jpeg(800, 600);
      const broken = Buffer.concat([whole.subarray(0, 400), Buffer.alloc(2000, 0x17)]);
      const res = await upload(member, broken);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: ProfileMessages.notAnImage, code: ProfileErrorCode.NotAnImage });
    });

    it('asks for an image when no file (or another field) is sent', async () => {
      const member = await bed.member();
      const none = await request(server)
        .post('/api/photos/upload')
        .set('Authorization', member.authorization);
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ error: ProfileMessages.notAnImage });

      const json = await request(server)
        .post('/api/photos/upload')
        .set('Authorization', member.authorization)
        .send({ url: 'https://elsewhere.example/a.jpg' });
      expect(json.status).toBe(400);
      expect(json.body).toMatchObject({ error: ProfileMessages.notAnImage });

      const wrongField = await upload(member, await jpeg(), { field: 'image' });
      expect(wrongField.status).toBe(400);
      expect(wrongField.body).toMatchObject({ error: ProfileMessages.notAnImage });

      const empty = await upload(member, Buffer.alloc(0));
      expect(empty.status).toBe(400);
    });

    it('allows 5 MB on the profile screen and 10 MB in onboarding, with the spec messages', async () => {
      const member = await bed.member();
      const exactlyFive = await upload(member, await jpegOfSize(PROFILE_PHOTO_MAX_BYTES));
      expect(exactlyFive.status).toBe(201);

      const overFive = await upload(member, await jpegOfSize(PROFILE_PHOTO_MAX_BYTES + 1));
      expect(overFive.status).toBe(413);
      expect(overFive.body).toMatchObject({
        error: ProfileMessages.profilePhotoTooLarge,
        code: 'PAYLOAD_TOO_LARGE',
      });

      const six = await jpegOfSize(6 * 1024 * 1024);
      const sixOnProfile = await upload(member, six);
      expect(sixOnProfile.status).toBe(413);
      expect(sixOnProfile.body).toMatchObject({ error: ProfileMessages.profilePhotoTooLarge });
      const sixInOnboarding = await upload(member, six, { path: '/api/photos/upload?context=onboarding' });
      expect(sixInOnboarding.status).toBe(201);

      const overTen = await upload(member, await jpegOfSize(ONBOARDING_PHOTO_MAX_BYTES + 1), {
        path: '/api/profile/me/photos/upload?context=onboarding',
      });
      expect(overTen.status).toBe(413);
      expect(overTen.body).toMatchObject({ error: ProfileMessages.onboardingPhotoTooLarge });

      const far = await upload(member, Buffer.alloc(PROFILE_PHOTO_MAX_BYTES * 3, 1));
      expect(far.status).toBe(413);
      expect((await photosOf(member)).length).toBe(2);
    });

    it('keeps the 10 MB onboarding allowance for members still onboarding', async () => {
      const member = await bed.member();
      await bed.dataSource.query('UPDATE profiles SET onboarding_completed = true WHERE user_id = $1', [member.userId]);
      const six = await jpegOfSize(6 * 1024 * 1024);
      const res = await upload(member, six, { path: '/api/photos/upload?context=onboarding' });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ error: ProfileMessages.profilePhotoTooLarge });
      expect((await photosOf(member)).length).toBe(0);
    });

    it(`refuses a ${MAX_PHOTOS + 1}th photo`, async () => {
      const member = await bed.member();
      const picture = await jpeg(200, 200);
      for (let i = 0; i < MAX_PHOTOS; i++) await uploaded(member, picture);
      const seventh = await upload(member, picture);
      expect(seventh.status).toBe(400);
      expect(seventh.body).toMatchObject({ error: ProfileMessages.tooManyPhotos, code: ProfileErrorCode.TooManyPhotos });
      const photos = await photosOf(member);
      expect(photos.map((p) => p.order)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(photos.filter((p) => p.isPrimary)).toHaveLength(1);
    });

    it('never lets parallel uploads make more than 6, and leaves no files of the refused ones', async () => {
      const member = await bed.member();
      const picture = await jpeg(200, 200);
      for (let i = 0; i < MAX_PHOTOS - 2; i++) await uploaded(member, picture);
      const results = await Promise.all(Array.from({ length: 5 }, () => upload(member, picture)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 400, 400, 400]);
      const photos = await photosOf(member);
      expect(photos).toHaveLength(MAX_PHOTOS);
      expect(photos.map((p) => p.order)).toEqual([0, 1, 2, 3, 4, 5]);
      const [{ n }] = await bed.dataSource.query('SELECT count(*)::int AS n FROM photos WHERE user_id = $1', [
        member.userId,
      ]);
      expect(n).toBe(MAX_PHOTOS);
      const folders = await readdir(path.join(bed.photoDir, 'photos', member.userId));
      for (const photo of photos) expect(folders).toContain(photo.id);
      const refusedFolders = await Promise.all(folders.map(async (f) => (await storedFiles(member.userId, f)).length));
      expect(refusedFolders.every((count) => count === 0 || count === 3)).toBe(true);
    });

    it('needs a profile', async () => {
      const session = await signIn(bed.app, JWT_SECRET, randomUUID());
      const res = await request(server)
        .post('/api/photos/upload')
        .set('Authorization', session.authorization)
        .attach('photo', await jpeg(), { filename: 'a.jpg', contentType: 'image/jpeg' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: ProfileMessages.profileNotFound });
    });
  });

  describe('order, primary and deletion', () => {
    async function memberWithPhotos(count: number) {
      const member = await bed.member();
      const picture = await jpeg(200, 200);
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await uploaded(member, picture)).photo.id);
      return { member, ids };
    }

    it('keeps exactly one primary photo', async () => {
      const { member, ids } = await memberWithPhotos(3);
      expect((await photosOf(member)).map((p) => [p.id, p.isPrimary])).toEqual([
        [ids[0], true],
        [ids[1], false],
        [ids[2], false],
      ]);
      const res = await request(server)
        .put(`/api/photos/${ids[2]}/primary`)
        .set('Authorization', member.authorization)
        .expect(200);
      expect((res.body as PhotoDto[]).filter((p) => p.isPrimary).map((p) => p.id)).toEqual([ids[2]]);
      await request(server)
        .put(`/api/profile/me/photos/${ids[1]}/primary`)
        .set('Authorization', member.authorization)
        .expect(200);
      const photos = await photosOf(member);
      expect(photos.filter((p) => p.isPrimary).map((p) => p.id)).toEqual([ids[1]]);
      const me = await request(server).get('/api/profile/me').set('Authorization', member.authorization);
      expect(me.body.profilePicture).toBe(photos.find((p) => p.id === ids[1])?.url);
    });

    it('reorders to a dense 0..n-1 in the given order', async () => {
      const { member, ids } = await memberWithPhotos(3);
      const res = await request(server)
        .put('/api/photos/reorder')
        .set('Authorization', member.authorization)
        .send({
          photoOrders: [
            { id: ids[0], order: 7 },
            { id: ids[1], order: 3 },
            { id: ids[2], order: 5 },
          ],
        })
        .expect(200);
      expect((res.body as PhotoDto[]).map((p) => [p.id, p.order])).toEqual([
        [ids[1], 0],
        [ids[2], 1],
        [ids[0], 2],
      ]);
      expect((res.body as PhotoDto[]).find((p) => p.isPrimary)?.id).toBe(ids[0]);

      await request(server)
        .put('/api/profile/me/photos/reorder')
        .set('Authorization', member.authorization)
        .send({ photoOrders: ids.map((id, order) => ({ id, order })) })
        .expect(200);
      expect((await photosOf(member)).map((p) => p.id)).toEqual(ids);
    });

    it('refuses an order that does not list exactly the own photos', async () => {
      const { member, ids } = await memberWithPhotos(2);
      const other = await memberWithPhotos(1);
      const bodies = [
        { photoOrders: [{ id: ids[0], order: 0 }] },
        {
          photoOrders: [
            { id: ids[0], order: 0 },
            { id: ids[0], order: 1 },
          ],
        },
        {
          photoOrders: [
            { id: ids[0], order: 0 },
            { id: ids[1], order: 1 },
            { id: other.ids[0], order: 2 },
          ],
        },
        {
          photoOrders: [
            { id: ids[0], order: 0 },
            { id: other.ids[0], order: 1 },
          ],
        },
        { photoOrders: 'first' },
        { photoOrders: [{ id: 'nope', order: 0 }] },
        { photoOrders: [{ id: ids[0], order: 0, extra: true }] },
        {},
      ];
      for (const body of bodies) {
        const res = await request(server)
          .put('/api/photos/reorder')
          .set('Authorization', member.authorization)
          .send(body);
        expect(res.status).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      expect((await photosOf(member)).map((p) => p.id)).toEqual(ids);
      expect((await photosOf(other.member)).map((p) => p.order)).toEqual([0]);
    });

    it('deletes a photo and its files; deleting the primary promotes the next; orders close up', async () => {
      const { member, ids } = await memberWithPhotos(3);
      await request(server)
        .delete(`/api/photos/${ids[1]}`)
        .set('Authorization', member.authorization)
        .expect(200);
      expect(await storedFiles(member.userId, ids[1])).toEqual([]);
      expect((await download(`/api/photos/files/${ids[1]}/large.webp`)).res.status).toBe(404);
      expect((await photosOf(member)).map((p) => [p.id, p.order, p.isPrimary])).toEqual([
        [ids[0], 0, true],
        [ids[2], 1, false],
      ]);

      const res = await request(server)
        .delete(`/api/profile/me/photos/${ids[0]}`)
        .set('Authorization', member.authorization)
        .expect(200);
      expect((res.body as PhotoDto[]).map((p) => [p.id, p.order, p.isPrimary])).toEqual([[ids[2], 0, true]]);

      await request(server)
        .delete(`/api/photos/${ids[2]}`)
        .set('Authorization', member.authorization)
        .expect(200);
      expect(await photosOf(member)).toEqual([]);
      const me = await request(server).get('/api/profile/me').set('Authorization', member.authorization);
      expect(me.body).toMatchObject({ photos: [], profilePicture: null });

      const events = await bed.eventsOf(member.userId);
      expect(
        events
          .filter((e) => e.name === 'photo.deleted')
          .map((e) => e.payload.photoId)
          .sort(),
      ).toEqual([...ids].sort());
      expect(events.filter((e) => e.name === 'profile.updated').at(-1)?.payload).toMatchObject({
        hasPhoto: false,
        profilePicture: null,
      });
    });

    it("never lets a member delete, make primary, reorder or attach someone else's photo", async () => {
      const owner = await memberWithPhotos(2);
      const intruder = await memberWithPhotos(1);
      const target = owner.ids[1];

      const del = await request(server)
        .delete(`/api/photos/${target}`)
        .set('Authorization', intruder.member.authorization);
      expect(del.status).toBe(404);
      expect(del.body).toMatchObject({ error: ProfileMessages.photoNotFound });
      const primary = await request(server)
        .put(`/api/photos/${target}/primary`)
        .set('Authorization', intruder.member.authorization);
      expect(primary.status).toBe(404);
      const attach = await request(server)
        .post('/api/profile/me/photos')
        .set('Authorization', intruder.member.authorization)
        .send({ url: `/api/photos/files/${target}/large.webp`, isPrimary: true });
      expect(attach.status).toBe(400);
      expect(attach.body).toMatchObject({ error: ProfileMessages.photoNotUploadedHere });

      expect((await photosOf(owner.member)).map((p) => [p.id, p.isPrimary])).toEqual([
        [owner.ids[0], true],
        [owner.ids[1], false],
      ]);
      expect(await storedFiles(owner.member.userId, target)).toHaveLength(3);
    });

    it('answers 404 for an unknown or malformed photo id', async () => {
      const member = await bed.member();
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await request(server)
          .delete(`/api/photos/${id}`)
          .set('Authorization', member.authorization);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: ProfileMessages.photoNotFound });
        await request(server)
          .put(`/api/photos/${id}/primary`)
          .set('Authorization', member.authorization)
          .expect(404);
      }
    });
  });

  describe('POST /api/profile/me/photos (attach by URL)', () => {
    it('accepts only URLs of photos the member uploaded to Mate', async () => {
      const member = await bed.member();
      const first = await uploaded(member);
      const second = await uploaded(member);

      const relative = await request(server)
        .post('/api/profile/me/photos')
        .set('Authorization', member.authorization)
        .send({ url: second.url });
      expect(relative.status).toBe(200);
      expect(relative.body).toEqual(second.photo);

      const absolute = await request(server)
        .post('/api/profile/me/photos')
        .set('Authorization', member.authorization)
        .send({ url: `https://mate.example${second.url.replace('large', 'thumb')}`, isPrimary: true });
      expect(absolute.status).toBe(200);
      expect(absolute.body).toEqual({ ...second.photo, isPrimary: true });
      expect((await photosOf(member)).map((p) => [p.id, p.isPrimary])).toEqual([
        [first.photo.id, false],
        [second.photo.id, true],
      ]);

      for (const url of [
        'https://elsewhere.example/me.jpg',
        'http://169.254.169.254/latest/meta-data/',
        `https://elsewhere.example/photos/${first.photo.id}/large.webp`,
        `/api/photos/files/${randomUUID()}/large.webp`,
        'data:image/png;base64,iVBORw0KGgo=',
        '',
        42,
      ]) {
        const res = await request(server)
          .post('/api/profile/me/photos')
          .set('Authorization', member.authorization)
          .send({ url });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: ProfileMessages.photoNotUploadedHere });
      }
      const unknownField = await request(server)
        .post('/api/profile/me/photos')
        .set('Authorization', member.authorization)
        .send({ url: first.url, caption: 'hi' });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body).toMatchObject({ error: 'Unknown field: caption' });
    });
  });

  describe('files and moderation', () => {
    it('serves files without a session, and 404s for unknown ids, sizes and rejected photos', async () => {
      const member = await bed.member();
      const { photo } = await uploaded(member);
      const kept = await uploaded(member);
      expect((await download(photo.url)).res.status).toBe(200);

      for (const url of [
        `/api/photos/files/${randomUUID()}/large.webp`,
        '/api/photos/files/not-a-uuid/large.webp',
        `/api/photos/files/${photo.id}/huge.webp`,
        `/api/photos/files/${photo.id}/large.png`,
        `/api/photos/files/${photo.id}/..%2F..%2Fetc%2Fpasswd`,
      ]) {
        const { res, body } = await download(url);
        expect(res.status).toBe(404);
        expect(JSON.parse(body.toString())).toMatchObject({ error: ProfileMessages.photoNotFound });
      }

      // Pending photos show; a rejected one disappears from every answer and stops being served.
      await bed.dataSource.query(
        "UPDATE photos SET moderation_status = 'rejected', moderated_at = now(), rejection_reason = 'x' WHERE id = $1",
        [photo.id],
      );
      expect((await download(photo.url)).res.status).toBe(404);
      expect((await photosOf(member)).map((p) => p.id)).toEqual([kept.photo.id]);
      const me = await request(server).get('/api/profile/me').set('Authorization', member.authorization);
      expect(me.body.photos.map((p: PhotoDto) => p.id)).toEqual([kept.photo.id]);
      expect(me.body.profilePicture).toBe(kept.url);
      const del = await request(server)
        .delete(`/api/photos/${photo.id}`)
        .set('Authorization', member.authorization);
      expect(del.status).toBe(404);

      // A rejected photo does not count towards the six.
      for (let i = 0; i < MAX_PHOTOS - 1; i++) await uploaded(member, await jpeg(100, 100));
      expect(await photosOf(member)).toHaveLength(MAX_PHOTOS);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a session on every photo route except the files', async () => {
      const id = randomUUID();
      const routes: [string, string][] = [
        ['get', '/api/photos'],
        ['get', '/api/profile/me/photos'],
        ['post', '/api/photos/upload'],
        ['post', '/api/profile/me/photos/upload'],
        ['post', '/api/profile/me/photos'],
        ['delete', `/api/photos/${id}`],
        ['delete', `/api/profile/me/photos/${id}`],
        ['put', `/api/photos/${id}/primary`],
        ['put', `/api/profile/me/photos/${id}/primary`],
        ['put', '/api/photos/reorder'],
        ['put', '/api/profile/me/photos/reorder'],
      ];
      for (const [method, route] of routes) {
        const res = await (request(server) as unknown as Record<string, (url: string) => request.Test>)[
          method
        ](route);
        expect({ route, status: res.status }).toEqual({ route, status: 401 });
        expect(res.body).toMatchObject({ error: AuthMessages.authRequired });
      }
      const member = await bed.member();
      const { url } = await uploaded(member);
      expect((await download(url)).res.status).toBe(200);
    });

    it('answers both path families with the same list', async () => {
      const member = await bed.member();
      await uploaded(member);
      const a = await request(server)
        .get('/api/photos')
        .set('Authorization', member.authorization)
        .expect(200);
      const b = await request(server)
        .get('/api/profile/me/photos')
        .set('Authorization', member.authorization)
        .expect(200);
      expect(b.body).toEqual(a.body);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Redis from 'ioredis';
import sharp from 'sharp';
import request from 'supertest';
import {
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  orderedPairOf,
  pairIdOf,
  SERVICES,
  type ProfileExportPart,
  type UserBlockedPayload,
} from '@mate/contracts';
import { BaseServiceEnv, REDIS } from '@mate/server-kit';
import { columnsHolding } from '@mate/testing';
import { eventEnvelope } from '@mate/server-kit/testing';
import { envelope, startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';

jest.setTimeout(120_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

async function jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .jpeg()
    .toBuffer();
}

/**
 * A member's data in profile-service (issue 12, docs/adr/0016-member-data.md): their part of the
 * export, and their erasure on user.deleted (rows, photo files, counters, the kit's traces).
 */
describe('member data in profile-service (real PostgreSQL, Redis and a photo folder)', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;
  let picture: Buffer;
  const internal = { [INTERNAL_TOKEN_HEADER]: new BaseServiceEnv().INTERNAL_TOKEN };

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_member_data');
    server = bed.app.getHttpServer();
    picture = await jpeg();
  });

  afterAll(async () => {
    await bed?.close();
  });

  const as = (member: Member) => ({
    get: (url: string) => request(server).get(url).set('Authorization', member.authorization),
    put: (url: string, body: object) => request(server).put(url).set('Authorization', member.authorization).send(body),
  });

  async function upload(member: Member): Promise<string> {
    const res = await request(server)
      .post('/api/photos/upload')
      .set('Authorization', member.authorization)
      .attach('photo', picture, { filename: 'me.jpg', contentType: 'image/jpeg' })
      .expect(201);
    return res.body.photo.id as string;
  }

  /** A member who used every profile feature: profile, photos (one rejected), both preference sets. */
  async function memberWithEverything(): Promise<{ member: Member; photoIds: string[] }> {
    const member = await bed.member({ name: 'Ana', age: 31 });
    await bed.putProfile(member, { bio: 'Climbing, books and long walks.', location: 'Zurich', gender: 'female' }).expect(200);
    const photoIds = [await upload(member), await upload(member), await upload(member)];
    await bed.dataSource.query(
      `UPDATE photos SET moderation_status = 'rejected', moderated_at = now(), rejection_reason = 'blurry' WHERE id = $1`,
      [photoIds[2]],
    );
    await as(member).put('/api/preferences/me', { minAge: 25, maxAge: 40, interests: ['climbing'] }).expect(200);
    await as(member)
      .put('/api/profile/me/preferences', { minAge: 26, maxAge: 41, maxDistance: 30, smokingPreference: ['never'] })
      .expect(200);
    return { member, photoIds };
  }

  const exportOf = (userId: string, headers: Record<string, string> = internal) =>
    request(server).get(memberExportPath(userId)).set(headers);

  /** Every column of every table, as text, that contains the id (the verify command's check). */
  const tracesOf = (userId: string) => columnsHolding(bed.dataSource, userId);

  async function filesUnder(...parts: string[]): Promise<string[]> {
    try {
      return (await readdir(path.join(bed.photoDir, ...parts), { recursive: true })).map(String).sort();
    } catch {
      return [];
    }
  }

  /** The member's upload counters in Redis (the only Redis keys profile-service keeps per member). */
  async function counterKeysOf(userId: string): Promise<string[]> {
    return bed.app.get<Redis>(REDIS).keys(`*:rl:*${userId}*`);
  }

  const versions = new Map<string, number>();
  function block(blocker: string, blocked: string) {
    const pairId = pairIdOf(blocker, blocked);
    const version = (versions.get(pairId) ?? 0) + 1;
    versions.set(pairId, version);
    const payload: UserBlockedPayload = {
      pairId,
      userIds: orderedPairOf(blocker, blocked),
      blockedBy: [blocker],
      blockerId: blocker,
      blockedId: blocked,
      endedMatchId: null,
      blockedAt: new Date().toISOString(),
    };
    return bed.consumer.apply({
      ...eventEnvelope(SERVICES.safety, 'user.blocked', payload),
      aggregateType: 'pair',
      aggregateId: pairId,
      aggregateVersion: version,
    });
  }
  const deleted = (userId: string) =>
    bed.consumer.apply(envelope('user.deleted', { userId, deletedAt: new Date().toISOString() }));

  describe('export part', () => {
    it('holds the own profile as GET /api/profile/me shows it, every photo with its link, and both preference sets', async () => {
      const { member, photoIds } = await memberWithEverything();
      const res = await exportOf(member.userId).expect(200);
      const part = res.body as ProfileExportPart;

      const own = await as(member).get('/api/profile/me').expect(200);
      expect(part.profile).toEqual(own.body);
      expect(part.privateFields).toEqual({
        latitude: expect.any(Number),
        longitude: expect.any(Number),
        onboardingSkipped: false,
      });

      expect(part.photos.map((p) => [p.id, p.order, p.isPrimary, p.status])).toEqual([
        [photoIds[0], 0, true, 'pending'],
        [photoIds[1], 1, false, 'pending'],
        // Rejected: still the member's data, though no longer shown or served.
        [photoIds[2], 2, false, 'rejected'],
      ]);
      for (const photo of part.photos) {
        expect(photo.downloadUrl).toBe(`/api/photos/files/${photo.id}/large.webp`);
        expect(Number.isNaN(Date.parse(photo.uploadedAt))).toBe(false);
      }
      // The link works without a session (the app's own <img> URL, largest size).
      const file = await fetch(`${bed.url}${part.photos[0].downloadUrl}`);
      expect(file.status).toBe(200);
      expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe('webp');

      expect(part.preferences).toEqual({
        match: (await as(member).get('/api/preferences/me').expect(200)).body,
        filters: (await as(member).get('/api/profile/me/preferences').expect(200)).body,
      });
      expect(part.preferences).toMatchObject({
        match: { minAge: 26, maxAge: 41, interests: ['climbing'] },
        filters: { maxDistance: 30, smokingPreference: ['never'] },
      });
    });

    it('answers empty parts for a member without photos or preferences, and for an unknown id', async () => {
      const member = await bed.member();
      const part = (await exportOf(member.userId).expect(200)).body as ProfileExportPart;
      expect(part).toMatchObject({ photos: [], preferences: null, profile: { userId: member.userId } });
      expect((await exportOf(randomUUID()).expect(200)).body).toEqual({
        profile: null,
        photos: [],
        preferences: null,
        privateFields: null,
      });
    });

    it('is for the platform’s services only: no internal credential, no export (a member token is not one)', async () => {
      const member = await bed.member();
      expect((await exportOf(member.userId, {}).expect(403)).body).toMatchObject({ error: expect.any(String) });
      const withToken = await exportOf(member.userId, { Authorization: member.authorization });
      expect(withToken.status).toBe(403);
      expect((await exportOf('not-a-member').expect(400)).body).toMatchObject({ error: expect.any(String) });
    });
  });

  describe('erasure (user.deleted)', () => {
    it('leaves no trace of the member in any table, their photo files or their counters; the others keep theirs', async () => {
      const { member: ana, photoIds } = await memberWithEverything();
      const [ben, cleo] = [await bed.member({ name: 'Ben' }), await bed.member({ name: 'Cleo' })];
      const benPhoto = await upload(ben);
      // A photo stored before issue 12, at `photos/<photoId>` (its row keeps that key).
      const legacyId = randomUUID();
      await mkdir(path.join(bed.photoDir, 'photos', legacyId), { recursive: true });
      for (const size of ['large', 'medium', 'thumb'])
        await writeFile(path.join(bed.photoDir, 'photos', legacyId, `${size}.webp`), picture);
      await bed.dataSource.query(
        `INSERT INTO photos (id, profile_id, user_id, url, "order", storage_key, sizes)
         SELECT $1, id, user_id, $2, 3, $3, '{"large":{"width":1,"height":1}}' FROM profiles WHERE user_id = $4`,
        [legacyId, `/api/photos/files/${legacyId}/large.webp`, `photos/${legacyId}`, ana.userId],
      );
      // Blocks in both directions, and one between two other members.
      expect(await block(ana.userId, ben.userId)).toBe('handled');
      expect(await block(cleo.userId, ana.userId)).toBe('handled');
      expect(await block(ben.userId, cleo.userId)).toBe('handled');

      expect(await tracesOf(ana.userId)).toEqual(
        expect.arrayContaining(['profiles.user_id', 'photos.user_id', 'preferences.user_id', 'kit_pair.blocked_by', 'outbox.body', 'photos.storage_key']),
      );
      expect((await filesUnder('photos', ana.userId)).filter((f) => f.endsWith('.webp'))).toHaveLength(9);
      expect(await counterKeysOf(ana.userId)).not.toEqual([]);

      expect(await deleted(ana.userId)).toBe('handled');

      expect(await tracesOf(ana.userId)).toEqual([]);
      expect(await filesUnder('photos', ana.userId)).toEqual([]);
      expect(await filesUnder('photos', legacyId)).toEqual([]);
      expect(await counterKeysOf(ana.userId)).toEqual([]);
      for (const id of photoIds) expect((await fetch(`${bed.url}/api/photos/files/${id}/large.webp`)).status).toBe(404);
      expect((await exportOf(ana.userId).expect(200)).body).toEqual({ profile: null, photos: [], preferences: null, privateFields: null });

      // The others keep their profiles, photos and their own block.
      await as(ben).get('/api/profile/me').expect(200);
      await as(cleo).get('/api/profile/me').expect(200);
      expect(await filesUnder('photos', ben.userId, benPhoto)).toEqual(['large.webp', 'medium.webp', 'thumb.webp']);
      expect(await bed.dataSource.query('SELECT member_a AS user_a, member_b AS user_b FROM kit_pair')).toEqual([
        { user_a: orderedPairOf(ben.userId, cleo.userId)[0], user_b: orderedPairOf(ben.userId, cleo.userId)[1] },
      ]);
      await bed.dataSource.query('DELETE FROM kit_pair');

      // Twice (a redelivery under a new id, after a failed acknowledgement): nothing changes, no error.
      expect(await deleted(ana.userId)).toBe('handled');
      expect(await tracesOf(ana.userId)).toEqual([]);
    });

    it('drops later events naming the erased member: no profile, no block comes back', async () => {
      const ana = await bed.member();
      const ben = await bed.member();
      expect(await deleted(ana.userId)).toBe('handled');

      const registered = envelope('user.registered', {
        userId: ana.userId,
        email: `${ana.userId}@mate.test`,
        name: 'Ana again',
        age: 30,
        registeredAt: new Date().toISOString(),
      });
      expect(await bed.consumer.apply(registered)).toBe('erased');
      expect(await bed.consumer.apply(envelope('user.verified', { userId: ana.userId, verifiedAt: new Date().toISOString() }))).toBe(
        'erased',
      );
      expect(await block(ben.userId, ana.userId)).toBe('erased');
      expect(await tracesOf(ana.userId)).toEqual([]);
      // A member still here is untouched.
      await as(ben).get('/api/profile/me').expect(200);
    });

    it('a photo upload racing the erasure leaves no file behind', async () => {
      const ana = await bed.member();
      await upload(ana);
      const uploading = request(server)
        .post('/api/photos/upload')
        .set('Authorization', ana.authorization)
        .attach('photo', picture, { filename: 'me.jpg', contentType: 'image/jpeg' });
      const [res] = await Promise.all([uploading, deleted(ana.userId)]);
      // Either the upload committed before the erasure (which then erased it) or it found no profile.
      expect([201, 404]).toContain(res.status);
      expect(await filesUnder('photos', ana.userId)).toEqual([]);
      expect(await tracesOf(ana.userId)).toEqual([]);
    });
  });
});

import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { AuthMessages, PROFILE_MAX_INTERESTS, ProfileErrorCode, ProfileMessages, type OwnProfileDto } from '@mate/contracts';
import { JWT_SECRET, signIn, startProfileTestBed, type ProfileTestBed } from '../../__tests__/test-app';
import { ProfilesService } from '../profiles.service';
import { PUBLIC_PROFILE_KEYS } from './public-profile-keys';

jest.setTimeout(120_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

const BIO = 'Climber, cook and avid reader of maps.';
const ONBOARDING = {
  name: 'Ana',
  age: 29,
  gender: 'female',
  bio: BIO,
  interests: ['Travel', 'Music'],
  lookingFor: 'long-term',
  location: 'Lisbon, Portugal',
};

describe('profile editing, completion, onboarding and public profiles', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;
  let picture: Buffer;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_edit');
    server = bed.app.getHttpServer();
    picture = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c86432' } })
      .jpeg()
      .toBuffer();
  });

  afterAll(async () => {
    await bed?.close();
  });

  const onboard = (member: Member, body?: unknown) => {
    const req = request(server)
      .post('/api/profile/me/complete-onboarding')
      .set('Authorization', member.authorization);
    return body === undefined ? req : req.send(body as object);
  };

  async function addPhoto(member: Member) {
    await request(server)
      .post('/api/photos/upload?context=onboarding')
      .set('Authorization', member.authorization)
      .attach('photo', picture, { filename: 'me.jpg', contentType: 'image/jpeg' })
      .expect(201);
  }

  async function row(userId: string) {
    const rows: Record<string, unknown>[] = await bed.dataSource.query(
      'SELECT * FROM profiles WHERE user_id = $1',
      [userId],
    );
    return rows[0];
  }

  describe('PUT /api/profile/me', () => {
    it('saves every field, trims text, cleans interests and geocodes the location privately', async () => {
      const member = await bed.member();
      const res = await bed.putProfile(member, {
        name: '  Ana Maria ',
        age: 31,
        gender: 'non-binary',
        bio: '  Loves long walks.  ',
        location: ' Paris, France ',
        height: 172,
        occupation: 'Engineer',
        education: 'MSc',
        lookingFor: 'relationship',
        interests: [' Travel', 'music', 'Music', '', '  ', 'Art '],
      });
      expect(res.status).toBe(200);
      const body = res.body as OwnProfileDto;
      expect(body).toMatchObject({
        userId: member.userId,
        name: 'Ana Maria',
        age: 31,
        gender: 'non-binary',
        bio: 'Loves long walks.',
        location: 'Paris, France',
        height: 172,
        occupation: 'Engineer',
        education: 'MSc',
        lookingFor: 'relationship',
        interests: ['Travel', 'music', 'Art'],
        locationResolved: true,
      });
      expect(body).not.toHaveProperty('locationNote');
      expect(Object.keys(body).filter((k) => /lat|lng|longitude|email|coordinates/i.test(k))).toEqual([]);

      const stored = await row(member.userId);
      expect(stored.location_resolved).toBe(true);
      expect(Number(stored.location_lat)).toBeCloseTo(48.85, 1);
      expect(Number(stored.location_lng)).toBeCloseTo(2.35, 1);

      const me = await request(server)
        .get('/api/profile/me')
        .set('Authorization', member.authorization)
        .expect(200);
      expect(me.body).toEqual(body);

      const updates = (await bed.eventsOf(member.userId)).filter((e) => e.name === 'profile.updated');
      expect(updates.at(-1)?.payload).toMatchObject({
        userId: member.userId,
        name: 'Ana Maria',
        locationText: 'Paris, France',
        latitude: expect.any(Number),
        longitude: expect.any(Number),
        interests: ['Travel', 'music', 'Art'],
        hasPhoto: false,
      });
      expect(Number(updates.at(-1)?.payload.latitude)).toBeCloseTo(48.85, 1);
    });

    it('leaves fields that were not sent, clears fields sent as null or empty', async () => {
      const member = await bed.member();
      await bed.putProfile(member, {
        bio: 'Hello there',
        occupation: 'Chef',
        interests: ['Food'],
        location: 'Berlin, Germany',
      }).expect(200);
      const res = await bed.putProfile(member, { bio: null, occupation: '', interests: null, location: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Ana',
        age: 29,
        bio: null,
        occupation: null,
        interests: [],
        location: null,
        locationResolved: null,
      });
      expect(await row(member.userId)).toMatchObject({
        location_lat: null,
        location_lng: null,
        location_resolved: null,
      });
    });

    it('keeps an unknown city as text, with distance matching off and a note saying so', async () => {
      const member = await bed.member();
      const res = await bed.putProfile(member, { location: 'Atlantis, Nowhere' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        location: 'Atlantis, Nowhere',
        locationResolved: false,
        locationNote: ProfileMessages.locationUnknown,
      });
      expect(await row(member.userId)).toMatchObject({
        location_lat: null,
        location_lng: null,
        location_resolved: false,
      });
      const me = await request(server).get('/api/profile/me').set('Authorization', member.authorization);
      expect(me.body).toMatchObject({ locationResolved: false });
      expect(me.body).not.toHaveProperty('locationNote');
    });

    it.each([
      ['age', 17, ProfileMessages.underage],
      ['age', 121, 'Age must be at most 120'],
      ['age', 29.5, 'Age must be a whole number'],
      ['age', '29', 'Age must be a whole number'],
      ['height', 99, 'Height must be between 100 and 250 cm'],
      ['height', 251, 'Height must be between 100 and 250 cm'],
      ['bio', 'b'.repeat(501), 'Bio must be at most 500 characters'],
      ['name', 'n'.repeat(101), 'Name must be at most 100 characters'],
      ['location', 'l'.repeat(201), 'Location must be at most 200 characters'],
      ['occupation', 'o'.repeat(101), 'Occupation must be at most 100 characters'],
      ['education', 'e'.repeat(101), 'Education must be at most 100 characters'],
      ['gender', 'robot', expect.stringMatching(/^Gender must be one of/)],
      ['lookingFor', 'fling', expect.stringMatching(/^Looking for must be one of/)],
      ['interests', Array.from({ length: 31 }, (_, i) => `Interest ${i}`), 'Maximum 30 interests allowed'],
      ['interests', ['i'.repeat(41)], 'Each interest must be at most 40 characters'],
      ['interests', 'Travel', 'Interests must be a list of words'],
      ['interests', ['Travel', 7], 'Interests must be a list of words'],
      ['email', 'x@y.z', 'Unknown field: email'],
      ['isVerified', true, 'Unknown field: isVerified'],
    ])('refuses %s = %j', async (field, value, error) => {
      const member = await bed.member();
      const before = await row(member.userId);
      const res = await bed.putProfile(member, { name: 'Changed', [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error, code: 'VALIDATION_FAILED' });
      expect(await row(member.userId)).toEqual(before);
    });

    it.each([
      ['age', 18],
      ['age', 120],
      ['height', 100],
      ['height', 250],
      ['bio', 'b'.repeat(500)],
      ['name', 'n'.repeat(100)],
      ['interests', Array.from({ length: 30 }, (_, i) => `Interest ${i}`)],
      ['interests', [...Array.from({ length: 30 }, (_, i) => `Interest ${i}`), 'INTEREST 3']],
      ['interests', ['i'.repeat(40)]],
      ...['male', 'female', 'non-binary', 'other', 'prefer-not-to-say'].map((g) => ['gender', g]),
      ...['relationship', 'casual', 'friendship', 'not-sure', 'long-term', 'short-term'].map((l) => [
        'lookingFor',
        l,
      ]),
    ] as [string, unknown][])('accepts %s = %j', async (field, value) => {
      const member = await bed.member();
      const res = await bed.putProfile(member, { [field]: value });
      expect(res.status).toBe(200);
      if (field === 'interests')
        expect(res.body.interests).toHaveLength(Math.min((value as string[]).length, PROFILE_MAX_INTERESTS));
      else expect(res.body[field]).toEqual(value);
    });

    it('refuses malformed JSON with a 400, and answers 404 without a profile', async () => {
      const member = await bed.member();
      const bad = await request(server)
        .put('/api/profile/me')
        .set('Authorization', member.authorization)
        .set('Content-Type', 'application/json')
        .send('{"name": ');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'Malformed JSON in request body' });

      const nobody = await signIn(bed.app, JWT_SECRET, randomUUID());
      const res = await request(server)
        .put('/api/profile/me')
        .set('Authorization', nobody.authorization)
        .send({ age: 30 });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: ProfileMessages.profileNotFound });
    });

    it('publishes the profile exactly as stored, photos included, in the statement that changes it', async () => {
      // The change and its event are one statement and the event is built from the locked row
      // with the change applied, not read back (issue 27): it must equal what was stored.
      const member = await bed.member();
      await addPhoto(member);
      const res = await bed.putProfile(member, { bio: 'Stored as sent.', location: 'Paris, France', interests: ['Art'] }).expect(200);
      const stored = await row(member.userId);
      const photos: { id: string; url: string }[] = await bed.dataSource.query(
        'SELECT id, url FROM photos WHERE user_id = $1 ORDER BY "order"',
        [member.userId],
      );
      const updates = (await bed.eventsOf(member.userId)).filter((e) => e.name === 'profile.updated');
      expect(updates.at(-1)?.payload).toEqual(
        expect.objectContaining({
          userId: member.userId,
          bio: 'Stored as sent.',
          locationText: 'Paris, France',
          latitude: stored.location_lat,
          longitude: stored.location_lng,
          interests: ['Art'],
          hasPhoto: true,
          photos: photos.map((p) => ({ id: p.id, url: p.url })),
          updatedAt: (stored.updated_at as Date).toISOString(),
        }),
      );
      const versions: { version: number }[] = await bed.dataSource.query(
        `SELECT (body->>'aggregateVersion')::int AS version FROM outbox
          WHERE name = 'profile.updated' AND body->'payload'->>'userId' = $1 ORDER BY created_at`,
        [member.userId],
      );
      expect(versions.map((v) => v.version)).toEqual(versions.map((_, i) => i + 1));
      const me = await request(server).get('/api/profile/me').set('Authorization', member.authorization).expect(200);
      expect(me.body).toEqual(res.body);
    });

    it('publishes nothing when nothing changed', async () => {
      const member = await bed.member();
      await bed.putProfile(member, { occupation: 'Chef' }).expect(200);
      const count = (await bed.eventsOf(member.userId)).length;
      await bed.putProfile(member, { occupation: 'Chef', name: 'Ana' }).expect(200);
      expect((await bed.eventsOf(member.userId)).length).toBe(count);
    });
  });

  describe('profile.updated from the auth events', () => {
    it('publishes the whole profile when registration creates it and verification marks it', async () => {
      const member = await bed.member({ name: 'Kai', age: 41 });
      const updates = (await bed.eventsOf(member.userId)).filter((e) => e.name === 'profile.updated');
      expect(updates.map((e) => e.payload.isVerified)).toEqual([false, true]);
      expect(updates[1].payload).toEqual({
        userId: member.userId,
        name: 'Kai',
        age: 41,
        gender: null,
        lookingFor: null,
        interests: [],
        height: null,
        education: null,
        latitude: null,
        longitude: null,
        locationText: null,
        hasPhoto: false,
        profilePicture: null,
        isVerified: true,
        onboardingCompleted: false,
        smoking: null,
        drinking: null,
        exercise: null,
        pets: null,
        bio: null,
        occupation: null,
        photos: [],
        updatedAt: expect.any(String),
      });
    });
  });

  describe('geocode-locations (for rows written without coordinates)', () => {
    it('geocodes locations that never were, and publishes the change', async () => {
      const seeded = await bed.member();
      const unknown = await bed.member();
      await bed.dataSource.query('UPDATE profiles SET location = $2 WHERE user_id = $1', [
        seeded.userId,
        'Berlin, Germany',
      ]);
      await bed.dataSource.query('UPDATE profiles SET location = $2 WHERE user_id = $1', [
        unknown.userId,
        'Atlantis, Nowhere',
      ]);
      expect(await bed.app.get(ProfilesService).geocodeUngeocoded(1)).toBeGreaterThanOrEqual(2);
      expect(await row(seeded.userId)).toMatchObject({ location_resolved: true });
      expect(Number((await row(seeded.userId)).location_lat)).toBeCloseTo(52.5, 0);
      expect(await row(unknown.userId)).toMatchObject({ location_resolved: false, location_lat: null });
      const last = (await bed.eventsOf(seeded.userId)).filter((e) => e.name === 'profile.updated').at(-1);
      expect(last?.payload).toMatchObject({ locationText: 'Berlin, Germany', latitude: expect.any(Number) });
      expect(await bed.app.get(ProfilesService).geocodeUngeocoded()).toBe(0);
    });
  });

  describe('GET /api/profile/me/completion', () => {
    it('scores the profile out of 100', async () => {
      const member = await bed.member();
      const completion = () =>
        request(server)
          .get('/api/profile/me/completion')
          .set('Authorization', member.authorization)
          .expect(200);
      expect((await completion()).body).toEqual({ percentage: 20 });
      await bed.putProfile(member, {
        gender: 'female',
        bio: BIO,
        location: 'Lisbon, Portugal',
        interests: ['Travel', 'Music', 'Art'],
        lookingFor: 'casual',
        occupation: 'Chef',
        height: 170,
      }).expect(200);
      expect((await completion()).body).toEqual({ percentage: 80 });
      await addPhoto(member);
      expect((await completion()).body).toEqual({ percentage: 100 });
    });
  });

  describe('POST /api/profile/me/complete-onboarding', () => {
    it('skips with no body: onboarding done, skipped, published once', async () => {
      const member = await bed.member();
      const res = await onboard(member).expect(200);
      expect(res.body).toMatchObject({ onboardingCompleted: true, name: 'Ana' });
      await onboard(member, {}).expect(200);
      const events = (await bed.eventsOf(member.userId)).filter((e) => e.name === 'onboarding.completed');
      expect(events.map((e) => e.payload)).toEqual([
        { userId: member.userId, completedAt: expect.any(String), skipped: true },
      ]);
    });

    it('needs a photo to complete, and writes nothing without one', async () => {
      const member = await bed.member({ name: null, age: null });
      const before = await row(member.userId);
      const res = await onboard(member, ONBOARDING);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: ProfileMessages.photoRequired, code: ProfileErrorCode.PhotoRequired });
      expect(await row(member.userId)).toEqual(before);
      expect((await bed.eventsOf(member.userId)).map((e) => e.name)).not.toContain('onboarding.completed');
    });

    it('saves the answers, completes once, and completes a skipped onboarding later', async () => {
      const member = await bed.member({ name: null, age: null });
      await addPhoto(member);
      await onboard(member).expect(200);

      const res = await onboard(member, {
        ...ONBOARDING,
        name: '  Ana  ',
        interests: [' Travel ', 'travel', 'Music', ''],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Ana',
        age: 29,
        gender: 'female',
        bio: BIO,
        interests: ['Travel', 'Music'],
        lookingFor: 'long-term',
        location: 'Lisbon, Portugal',
        locationResolved: true,
        onboardingCompleted: true,
        profileCompleted: true,
      });
      const again = await onboard(member, ONBOARDING).expect(200);
      expect(again.body).toEqual(res.body);

      const completions = (await bed.eventsOf(member.userId)).filter(
        (e) => e.name === 'onboarding.completed',
      );
      expect(completions.map((e) => e.payload.skipped)).toEqual([true, false]);
      expect(await row(member.userId)).toMatchObject({
        onboarding_completed: true,
        onboarding_skipped: false,
      });
      expect(Number((await row(member.userId)).location_lat)).toBeCloseTo(38.7, 0);
    });

    it.each([
      [{ age: 17 }, ProfileMessages.underage],
      [{ age: 100 }, 'Age must be at most 99'],
      [{ age: 'thirty' }, 'Age must be a whole number'],
      [{ bio: 'x'.repeat(19) }, 'Bio must be at least 20 characters'],
      [{ bio: `  ${'x'.repeat(19)}   ` }, 'Bio must be at least 20 characters'],
      [{ bio: 'x'.repeat(501) }, 'Bio must be at most 500 characters'],
      [{ interests: Array.from({ length: 11 }, (_, i) => `Interest ${i}`) }, ProfileMessages.maxInterests],
      [{ interests: [] }, 'Please add at least one interest'],
      [{ interests: ['  ', ''] }, 'Please add at least one interest'],
      [{ name: '   ' }, 'Name is required'],
      [{ name: undefined }, 'Name is required'],
      [{ location: '' }, 'Location is required'],
      [{ location: undefined }, 'Location is required'],
      [{ gender: 'robot' }, expect.stringMatching(/^Gender must be one of/)],
      [{ gender: undefined }, expect.stringMatching(/^Gender must be one of/)],
      [{ lookingFor: 'fling' }, expect.stringMatching(/^Looking for must be one of/)],
      [{ onboardingCompleted: true }, 'Unknown field: onboardingCompleted'],
    ])('refuses %j', async (change, error) => {
      const member = await bed.member();
      await addPhoto(member);
      const before = await row(member.userId);
      const res = await onboard(member, { ...ONBOARDING, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error });
      expect(await row(member.userId)).toEqual(before);
    });

    it.each([
      [{ age: 18 }],
      [{ age: 99 }],
      [{ bio: 'x'.repeat(20) }],
      [{ bio: 'x'.repeat(500) }],
      [{ interests: Array.from({ length: 10 }, (_, i) => `Interest ${i}`) }],
      [{ interests: [...Array.from({ length: 10 }, (_, i) => `Interest ${i}`), 'interest 0'] }],
      ...['male', 'female', 'non-binary', 'prefer-not-to-say', 'other'].map((gender) => [{ gender }]),
      ...['long-term', 'short-term', 'friendship', 'casual', 'not-sure', 'relationship'].map((lookingFor) => [
        { lookingFor },
      ]),
    ] as [Record<string, unknown>][])('accepts %j', async (change) => {
      const member = await bed.member();
      await addPhoto(member);
      const res = await onboard(member, { ...ONBOARDING, ...change });
      expect(res.status).toBe(200);
      expect(res.body.onboardingCompleted).toBe(true);
    });

    it('treats a body with only some answers as completing (and so refuses it)', async () => {
      const member = await bed.member();
      await addPhoto(member);
      const res = await onboard(member, { name: 'Ana' });
      expect(res.status).toBe(400);
      expect(res.body.details.length).toBeGreaterThan(1);
      expect(await row(member.userId)).toMatchObject({ onboarding_completed: false });
    });
  });

  describe('GET /api/profile/:userId', () => {
    it("shows another member's public profile without email, coordinates or hidden state", async () => {
      const viewer = await bed.member();
      const other = await bed.member({ name: 'Zoe', age: 33 });
      await bed.putProfile(other, { location: 'Paris, France', bio: 'Hi', interests: ['Art'] }).expect(200);
      await addPhoto(other);
      await bed.dataSource.query('UPDATE profiles SET onboarding_completed = true WHERE user_id = $1', [other.userId]);
      const res = await request(server)
        .get(`/api/profile/${other.userId}`)
        .set('Authorization', viewer.authorization)
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...PUBLIC_PROFILE_KEYS, 'distance'].sort());
      expect(res.body).toMatchObject({
        userId: other.userId,
        name: 'Zoe',
        age: 33,
        location: 'Paris, France',
      });
      for (const key of [
        'email',
        'latitude',
        'longitude',
        'lat',
        'lng',
        'locationLat',
        'locationLng',
        'isVerified',
      ]) {
        expect(res.body).not.toHaveProperty(key);
      }
      expect(JSON.stringify(res.body)).not.toMatch(/48\.8|2\.35|moderation|pending|onboarding/i);
      expect(res.body.photos).toHaveLength(1);
      expect(Object.keys(res.body.photos[0]).sort()).toEqual(['id', 'isPrimary', 'order', 'url']);
    });

    it("tells the viewer the card's coarse distance between their cities, never the coordinates", async () => {
      const viewer = await bed.member();
      await bed.putProfile(viewer, { location: 'Paris, France' }).expect(200);
      const sameCity = await bed.member({ name: 'Zoe' });
      await bed.putProfile(sameCity, { location: 'Paris, France' }).expect(200);
      const farAway = await bed.member({ name: 'Lea' });
      await bed.putProfile(farAway, { location: 'Lyon, France' }).expect(200);
      const nowhere = await bed.member({ name: 'Kim' });
      await bed.putProfile(nowhere, { location: 'Atlantis of the Deep' }).expect(200);
      for (const other of [sameCity, farAway, nowhere]) {
        await addPhoto(other);
        await bed.dataSource.query('UPDATE profiles SET onboarding_completed = true WHERE user_id = $1', [other.userId]);
      }
      const distanceTo = async (other: Member) =>
        (
          await request(server)
            .get(`/api/profile/${other.userId}`)
            .set('Authorization', viewer.authorization)
            .expect(200)
        ).body.distance;

      expect(await distanceTo(sameCity)).toBe('in your city');
      // Paris to Lyon is about 392 km: rounded up to 50 km steps below 500 km.
      expect(await distanceTo(farAway)).toBe('about 400 km');
      expect(await distanceTo(nowhere)).toBeNull();
    });

    it('hides members who are not verified or have not finished onboarding', async () => {
      const viewer = await bed.member();
      const unverified = await bed.member({ verified: false });
      const onboarding = await bed.member();
      for (const other of [unverified, onboarding]) {
        const res = await request(server).get(`/api/profile/${other.userId}`).set('Authorization', viewer.authorization);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: ProfileMessages.profileNotFound });
      }
    });

    it('answers 404 for an unknown or malformed id, and keeps /me routes apart', async () => {
      const viewer = await bed.member();
      for (const id of [randomUUID(), 'someone', '123']) {
        const res = await request(server)
          .get(`/api/profile/${id}`)
          .set('Authorization', viewer.authorization);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: ProfileMessages.profileNotFound });
      }
      const me = await request(server)
        .get('/api/profile/me')
        .set('Authorization', viewer.authorization)
        .expect(200);
      expect(me.body).toHaveProperty('onboardingCompleted');
    });
  });

  describe('odd input', () => {
    it('never answers 500, whatever JSON arrives', async () => {
      const member = await bed.member();
      await addPhoto(member);
      const routes: [string, string][] = [
        ['put', '/api/profile/me'],
        ['post', '/api/profile/me/complete-onboarding'],
        ['post', '/api/profile/me/photos'],
        ['put', '/api/photos/reorder'],
        ['put', '/api/preferences/me'],
        ['put', '/api/profile/me/preferences'],
      ];
      const bodies = [
        '[]',
        '[1,2]',
        'null',
        '"text"',
        '42',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{}}}',
        '{"photoOrders":[null,1,"x",{}]}',
        '{"interests":[null,{},[]],"age":null,"name":{}}',
        '{"minAge":"18","maxAge":null,"genderPreference":[null]}',
        '{"url":{"href":"x"},"isPrimary":"yes"}',
        `{"bio":"${'\\u0000'.repeat(10)}","location":"\\ud800"}`,
      ];
      for (const [method, route] of routes) {
        for (const body of bodies) {
          const res = await (request(server) as unknown as Record<string, (url: string) => request.Test>)
            [method](route)
            .set('Authorization', member.authorization)
            .set('Content-Type', 'application/json')
            .send(body);
          expect({ route, body, status: res.status < 500 }).toEqual({ route, body, status: true });
          expect(typeof res.body).toBe('object');
        }
      }
    });
  });

  describe('authentication', () => {
    it('answers 401 without a session on every profile route', async () => {
      const routes: [string, string][] = [
        ['get', '/api/profile/me'],
        ['put', '/api/profile/me'],
        ['get', '/api/profile/me/completion'],
        ['post', '/api/profile/me/complete-onboarding'],
        ['get', `/api/profile/${randomUUID()}`],
      ];
      for (const [method, route] of routes) {
        const res = await (request(server) as unknown as Record<string, (url: string) => request.Test>)[
          method
        ](route);
        expect({ route, status: res.status }).toEqual({ route, status: 401 });
        expect(res.body).toMatchObject({ error: AuthMessages.authRequired });
      }
    });
  });
});

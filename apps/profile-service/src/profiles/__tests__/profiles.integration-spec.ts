import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import request from 'supertest';
import { AuthMessages, eventQueueName, SERVICES, type EventEnvelope, type ProfileDto } from '@mate/contracts';
import { createQueueConnection, EventConsumer, SessionStore } from '@mate/server-kit';
import type { RunningService } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { envelope, signIn, startProfileService, waitFor, type TestEnv } from '../../__tests__/test-app';

jest.setTimeout(60_000);

const JWT_SECRET = 'profile-service-test-secret';

describe('profile-service (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let redisNs: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let env: TestEnv;
  let svc: RunningService;
  let app: NestExpressApplication;
  let consumer: EventConsumer;
  let dataSource: DataSource;

  beforeAll(async () => {
    [db, redisNs] = await Promise.all([createTestDatabase('profile'), createTestRedisNamespace('profile')]);
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      REDIS_URL: redisNs.url,
      KEY_PREFIX: redisNs.prefix,
      OUTBOX_POLL_MS: '50',
      JWT_SECRET,
    };
    svc = await startProfileService(env);
    app = svc.app;
    consumer = app.get(EventConsumer);
    dataSource = app.get(DataSource);
  });

  afterAll(async () => {
    await svc?.close();
    await redisNs?.cleanup();
    await db?.drop();
  });

  async function profileRow(userId: string) {
    const rows: Record<string, unknown>[] = await dataSource.query(
      'SELECT * FROM profiles WHERE user_id = $1',
      [userId],
    );
    return rows[0] ?? {};
  }

  function registered(userId: string, name: string | null = 'Ana', age: number | null = 29) {
    return envelope('user.registered', {
      userId,
      email: `${userId}@mate.test`,
      name,
      age,
      registeredAt: new Date().toISOString(),
    });
  }

  function verified(userId: string) {
    return envelope('user.verified', { userId, verifiedAt: new Date().toISOString() });
  }

  describe('events', () => {
    it('creates the profile from user.registered, once', async () => {
      const userId = randomUUID();
      const event = registered(userId);
      expect(await consumer.handle(event)).toBe(true);
      const row = await profileRow(userId);
      expect(row).toMatchObject({
        name: 'Ana',
        age: 29,
        interests: [],
        is_verified: false,
        onboarding_completed: false,
      });

      expect(await consumer.handle(event)).toBe(false);
      expect(await profileRow(userId)).toEqual(row);
    });

    it('leaves an existing profile alone when another registration arrives', async () => {
      const userId = randomUUID();
      await consumer.handle(registered(userId, 'Ana', 29));
      await consumer.handle(registered(userId, 'Someone else', 40));
      expect(await profileRow(userId)).toMatchObject({ name: 'Ana', age: 29 });
    });

    it('marks the profile verified from user.verified, once', async () => {
      const userId = randomUUID();
      await consumer.handle(registered(userId));
      const event = verified(userId);
      expect(await consumer.handle(event)).toBe(true);
      const row = await profileRow(userId);
      expect(row).toMatchObject({ name: 'Ana', age: 29, is_verified: true });
      expect(await consumer.handle(event)).toBe(false);
      expect(await profileRow(userId)).toEqual(row);
    });

    it('ends in the same state when user.verified arrives before user.registered', async () => {
      const inOrder = randomUUID();
      await consumer.handle(registered(inOrder, 'Zoe', 33));
      await consumer.handle(verified(inOrder));

      const outOfOrder = randomUUID();
      await consumer.handle(verified(outOfOrder));
      expect(await profileRow(outOfOrder)).toMatchObject({ name: null, age: null, is_verified: true });
      await consumer.handle(registered(outOfOrder, 'Zoe', 33));

      const pick = ({
        name,
        age,
        is_verified,
        onboarding_completed,
        interests,
        gender,
        bio,
      }: Record<string, unknown>) => ({
        name,
        age,
        is_verified,
        onboarding_completed,
        interests,
        gender,
        bio,
      });
      const a = await profileRow(inOrder);
      const b = await profileRow(outOfOrder);
      expect(pick(b)).toEqual(pick(a));
      expect(pick(b)).toMatchObject({ name: 'Zoe', age: 33, is_verified: true });
    });

    it('fills name and age from a verification (v2) when the older registration (v1) arrives after it and is skipped', async () => {
      const userId = randomUUID();
      const versioned = <E extends EventEnvelope>(e: E, aggregateVersion: number): E => ({
        ...e,
        aggregateType: 'user',
        aggregateId: userId,
        aggregateVersion,
      });
      const v1 = versioned(registered(userId, 'Lea', 35), 1);
      const v2 = versioned(
        envelope('user.verified', { userId, verifiedAt: new Date().toISOString(), name: 'Lea', age: 35 }),
        2,
      );
      expect(await consumer.apply(v2)).toBe('handled');
      expect(await consumer.apply(v1)).toBe('stale');
      expect(await profileRow(userId)).toMatchObject({ name: 'Lea', age: 35, is_verified: true });
      const events = await dataSource.query(
        "SELECT body->>'aggregateVersion' AS version FROM outbox WHERE name = 'profile.updated' AND body->'payload'->>'userId' = $1",
        [userId],
      );
      // One profile.updated for the one change, numbered by this service's own profile counter.
      expect(events).toEqual([{ version: '1' }]);
    });

    it('consumes events from its real queue', async () => {
      const connection: Redis = createQueueConnection(redisNs.url);
      const queue = new Queue<EventEnvelope>(eventQueueName(SERVICES.profile), {
        connection,
        prefix: redisNs.prefix,
      });
      try {
        const userId = randomUUID();
        const first = verified(userId);
        const second = registered(userId, 'Kai', 41);
        await queue.add(first.name, first, { jobId: first.id });
        await queue.add(second.name, second, { jobId: second.id });
        await queue.add(second.name, second, { jobId: `${second.id}-again` });
        await waitFor(async () => (await queue.getJobCounts('completed')).completed === 3, {
          what: 'three events',
        });
        expect(await profileRow(userId)).toMatchObject({ name: 'Kai', age: 41, is_verified: true });
        const processed = await dataSource.query(
          'SELECT count(*)::int AS n FROM processed_event WHERE event_id = ANY($1)',
          [[first.id, second.id]],
        );
        expect(processed[0].n).toBe(2);
      } finally {
        await queue.close();
        await connection.quit();
      }
    });
  });

  describe('GET /api/profile/me', () => {
    it('answers the own profile, uncached, ignoring a cache-busting parameter', async () => {
      const userId = randomUUID();
      await consumer.handle(registered(userId, 'Ana', 29));
      await consumer.handle(verified(userId));
      const { authorization } = await signIn(app, JWT_SECRET, userId);

      const res = await request(app.getHttpServer())
        .get(`/api/profile/me?t=${Date.now()}`)
        .set('Authorization', authorization)
        .expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.body as ProfileDto;
      expect(body).toEqual({
        id: expect.any(String),
        userId,
        name: 'Ana',
        age: 29,
        gender: null,
        bio: null,
        location: null,
        height: null,
        occupation: null,
        education: null,
        lookingFor: null,
        interests: [],
        photos: [],
        profilePicture: null,
        smoking: null,
        drinking: null,
        exercise: null,
        pets: null,
        isVerified: true,
        profileCompleted: false,
        onboardingCompleted: false,
        locationResolved: null,
      });
    });

    it('reports a completed profile once the required fields and a photo are there', async () => {
      const userId = randomUUID();
      await consumer.handle(registered(userId, 'Ana', 29));
      await dataSource.query(
        `UPDATE profiles SET gender = 'female', bio = 'Climber and cook.', location = 'Lisbon, Portugal',
           interests = ARRAY['Travel','Music'] WHERE user_id = $1`,
        [userId],
      );
      const { id } = await profileRow(userId);
      await dataSource.query(
        `INSERT INTO photos (profile_id, user_id, url, is_primary, "order") VALUES
           ($1, $2, '/uploads/b.webp', true, 1), ($1, $2, '/uploads/a.webp', false, 0)`,
        [id, userId],
      );
      const { authorization } = await signIn(app, JWT_SECRET, userId);
      const { body } = await request(app.getHttpServer())
        .get('/api/profile/me')
        .set('Authorization', authorization)
        .expect(200);
      expect(body).toMatchObject({
        interests: ['Travel', 'Music'],
        profilePicture: '/uploads/b.webp',
        profileCompleted: true,
      });
      expect(body.photos.map((p: { url: string }) => p.url)).toEqual(['/uploads/a.webp', '/uploads/b.webp']);
    });

    it('answers 404 while the profile does not exist yet', async () => {
      const { authorization } = await signIn(app, JWT_SECRET, randomUUID());
      const res = await request(app.getHttpServer())
        .get('/api/profile/me')
        .set('Authorization', authorization)
        .expect(404);
      expect(res.body).toMatchObject({
        error: 'Profile not found',
        code: 'PROFILE_NOT_FOUND',
        requestId: expect.any(String),
      });
    });

    it('answers 401 without a token, with a bad signature, and after the session ended', async () => {
      const server = app.getHttpServer();
      const none = await request(server).get('/api/profile/me').expect(401);
      expect(none.body).toMatchObject({ error: AuthMessages.authRequired, requestId: expect.any(String) });

      const userId = randomUUID();
      await consumer.handle(registered(userId));
      const forged = await signIn(app, 'another-secret-of-16-chars', userId);
      await request(server).get('/api/profile/me').set('Authorization', forged.authorization).expect(401);

      const session = await signIn(app, JWT_SECRET, userId);
      await request(server).get('/api/profile/me').set('Authorization', session.authorization).expect(200);
      await app.get(SessionStore).revoke(session.sessionId, userId);
      const ended = await request(server)
        .get('/api/profile/me')
        .set('Authorization', session.authorization)
        .expect(401);
      expect(ended.body).toMatchObject({ error: AuthMessages.sessionExpired, code: 'SESSION_EXPIRED' });
    });
  });

  describe('POST /api/profile/me/complete-onboarding', () => {
    it('marks onboarding completed, and again without change', async () => {
      const userId = randomUUID();
      await consumer.handle(registered(userId));
      const { authorization } = await signIn(app, JWT_SECRET, userId);
      const server = app.getHttpServer();

      const first = await request(server)
        .post('/api/profile/me/complete-onboarding')
        .set('Authorization', authorization)
        .expect(200);
      expect(first.body).toMatchObject({ userId, onboardingCompleted: true });
      const before = await profileRow(userId);

      const again = await request(server)
        .post('/api/profile/me/complete-onboarding')
        .set('Authorization', authorization)
        .send({})
        .expect(200);
      expect(again.body).toEqual(first.body);
      expect(await profileRow(userId)).toEqual(before);
    });

    it('refuses unknown fields with 400', async () => {
      const userId = randomUUID();
      await consumer.handle(registered(userId));
      const { authorization } = await signIn(app, JWT_SECRET, userId);
      const res = await request(app.getHttpServer())
        .post('/api/profile/me/complete-onboarding')
        .set('Authorization', authorization)
        .send({ onboardingCompleted: false })
        .expect(400);
      expect(res.body).toMatchObject({
        error: 'Unknown field: onboardingCompleted',
        code: 'VALIDATION_FAILED',
      });
      expect(await profileRow(userId)).toMatchObject({ onboarding_completed: false });
    });

    it('answers 404 without a profile and 401 without a token', async () => {
      const { authorization } = await signIn(app, JWT_SECRET, randomUUID());
      const server = app.getHttpServer();
      await request(server)
        .post('/api/profile/me/complete-onboarding')
        .set('Authorization', authorization)
        .expect(404);
      await request(server).post('/api/profile/me/complete-onboarding').expect(401);
    });
  });
});

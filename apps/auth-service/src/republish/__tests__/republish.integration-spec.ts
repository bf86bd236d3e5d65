import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { QueueName, type EmailJobData, type EventEnvelope, type JobEnvelope } from '@mate/contracts';
import { call, startService, waitFor, type RunningService } from '@mate/server-kit/testing';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { AppModule } from '../../app.module';
import { AccountRepublisher } from '../account-republisher';

const PASSWORD = 'correct horse battery';

describe('republish: every account through the outbox as registration published it', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let svc: RunningService;
  let connection: Redis;
  let emailQueue: Queue;

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('auth_republish'), createTestRedisNamespace('auth_republish')]);
    svc = await startService((e) => AppModule.forRoot(e), {
      DATABASE_URL: db.url,
      REDIS_URL: ns.url,
      KEY_PREFIX: ns.prefix,
      LOG_LEVEL: 'silent',
      OUTBOX_POLL_MS: '50',
      WEB_URL: 'http://app.mate.test',
      IP_RATE_LIMIT_MULTIPLIER: '10',
    });
    connection = new Redis(ns.url, { maxRetriesPerRequest: null });
    emailQueue = new Queue(QueueName.Email, { connection, prefix: ns.prefix });
  });

  afterAll(async () => {
    await emailQueue.close();
    await connection.quit();
    await svc.close();
    await ns.cleanup();
    await db.drop();
  });

  async function eventsOf(userId: string): Promise<EventEnvelope[]> {
    const rows: { body: EventEnvelope }[] = await svc.app
      .get(DataSource)
      .query(
        // The account aggregate's events (not the once-a-day member.active fact of the sign-up session).
        `SELECT body FROM outbox WHERE kind = 'event' AND body->>'aggregateType' = 'user' AND body->'payload'->>'userId' = $1
          ORDER BY (body->>'aggregateVersion')::int`,
        [userId],
      );
    return rows.map((r) => r.body);
  }

  /** Signs up (and verifies the email) through the HTTP API, as a member does. */
  async function signUp(email: string, verify: boolean): Promise<string> {
    const res = await call<{ user: { id: string } }>(svc.url, 'POST', '/api/auth/register', {
      body: { email, password: PASSWORD, name: 'Ana Lima', age: 29 },
    });
    expect(res.status).toBe(201);
    if (verify) {
      const link = await waitFor(async () => {
        const jobs = await emailQueue.getJobs(['waiting', 'completed', 'active', 'delayed']);
        const job = jobs.map((j) => (j.data as JobEnvelope<QueueName.Email>).data).find((d: EmailJobData) => d.to === email);
        return job?.link;
      }, { what: `the verification email to ${email}` });
      const token = new URL(link).searchParams.get('token') ?? '';
      expect((await call(svc.url, 'POST', '/api/verification/verify', { body: { token } })).status).toBe(200);
    }
    return res.body.user.id;
  }

  it('publishes the same payloads the API did, at newer versions; a seeded account gets its first events', async () => {
    const ana = await signUp('ana@mate.test', true);
    const bo = await signUp('bo@mate.test', false);
    // An account the seeder wrote straight into the table: verified, no event.
    const cy = randomUUID();
    await svc.app.get(DataSource).query(
      `INSERT INTO users (id, email, password_hash, name, age, role, email_verified_at, created_at)
       VALUES ($1, 'cy@demo.mate.local', 'x', 'Cy Demo', 44, 'member', now() - interval '1 day', now() - interval '2 days')`,
      [cy],
    );
    const apiEvents = await eventsOf(ana);
    expect(apiEvents.map((e) => [e.name, e.aggregateVersion])).toEqual([
      ['user.registered', 1],
      ['user.verified', 2],
    ]);

    // Batches of two: three accounts take two batches.
    expect(await svc.app.get(AccountRepublisher).republishAll(2)).toEqual({ registered: 3, verified: 2 });

    const anaEvents = await eventsOf(ana);
    expect(anaEvents.map((e) => [e.name, e.aggregateVersion])).toEqual([
      ['user.registered', 1],
      ['user.verified', 2],
      ['user.registered', 3],
      ['user.verified', 4],
    ]);
    expect(anaEvents[2].payload).toEqual(anaEvents[0].payload);
    expect(anaEvents[3].payload).toEqual(anaEvents[1].payload);

    const boEvents = await eventsOf(bo);
    expect(boEvents.map((e) => [e.name, e.aggregateVersion])).toEqual([
      ['user.registered', 1],
      ['user.registered', 2],
    ]);
    expect(boEvents[1].payload).toEqual(boEvents[0].payload);

    const cyEvents = await eventsOf(cy);
    expect(cyEvents.map((e) => [e.name, e.aggregateVersion])).toEqual([
      ['user.registered', 1],
      ['user.verified', 2],
    ]);
    expect(cyEvents[0].payload).toMatchObject({ userId: cy, email: 'cy@demo.mate.local', name: 'Cy Demo', age: 44 });
    expect(cyEvents[1].payload).toMatchObject({ userId: cy, name: 'Cy Demo', age: 44 });

    // The running relay hands them on like any other event.
    await waitFor(async () => {
      const [{ n }] = await svc.app.get(DataSource).query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
      return n === 0;
    }, { what: 'the relay to publish the republished events' });
  });
});

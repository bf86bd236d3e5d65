import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { eventQueueName, QueueName, SERVICES } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(30_000);

/**
 * A newer producer (rolling deploy) writes names this relay's catalogue does not know. Those rows
 * wait for a newer relay; they must never stop the rows behind them.
 */
describe('outbox relay and unknown names', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: KitService;
  let connection: Redis;
  let profileQueue: Queue;
  let emailQueue: Queue;

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('relay_unknown'), createTestRedisNamespace('relay_unknown')]);
    producer = await startKitService({ service: SERVICES.auth, db, redisUrl: ns.url, prefix: ns.prefix });
    connection = new Redis(ns.url, { maxRetriesPerRequest: null });
    profileQueue = new Queue(eventQueueName(SERVICES.profile), { connection, prefix: ns.prefix });
    emailQueue = new Queue(QueueName.Email, { connection, prefix: ns.prefix });
  });

  afterAll(async () => {
    await profileQueue?.close();
    await emailQueue?.close();
    await connection?.quit();
    await producer?.close();
    await ns?.cleanup();
    await db?.drop();
  });

  it('publishes the known rows behind an unknown one and leaves the unknown one for a newer relay', async () => {
    const ds = producer.dataSource;
    // Oldest first: an event and a job this build has never heard of.
    const unknownEvent = randomUUID();
    const unknownJob = randomUUID();
    await ds.query(
      `INSERT INTO outbox (id, kind, name, body, created_at) VALUES
         ($1, 'event', 'call.started', '{"id":"x"}', now() - interval '1 minute'),
         ($2, 'job', 'jobs.not-yet-known', '{"id":"y"}', now() - interval '1 minute')`,
      [unknownEvent, unknownJob],
    );
    const userId = randomUUID();
    const known = await ds.transaction(async (m) => {
      const event = await producer.outbox.publish(m, 'user.registered', {
        userId,
        email: 'behind@mate.test',
        name: null,
        age: null,
        registeredAt: new Date().toISOString(),
      });
      const job = await producer.outbox.enqueueJob(m, QueueName.Email, { template: 'verify-email', to: 'behind@mate.test', name: null, link: 'http://x/verify?token=t' });
      return { event: event.id, job };
    });

    // Twice: the second pass must neither fail nor pick the unknown rows up.
    expect(await producer.outbox.relayOnce()).toBe(2);
    expect(await producer.outbox.relayOnce()).toBe(0);

    expect(await profileQueue.getJob(known.event)).toBeTruthy();
    expect(await emailQueue.getJob(known.job)).toBeTruthy();
    const rows: { id: string; published: boolean; attempts: number; claimed: boolean }[] = await ds.query(
      'SELECT id, published_at IS NOT NULL AS published, attempts, claimed_until IS NOT NULL AS claimed FROM outbox',
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(known.event)).toMatchObject({ published: true, attempts: 1, claimed: false });
    expect(byId.get(known.job)).toMatchObject({ published: true, attempts: 1, claimed: false });
    // Untouched: a newer relay finds them as they were written.
    expect(byId.get(unknownEvent)).toMatchObject({ published: false, attempts: 0, claimed: false });
    expect(byId.get(unknownJob)).toMatchObject({ published: false, attempts: 0, claimed: false });
  });

  it('marks an event no deployed service consumes as published without sending it anywhere', async () => {
    const ds = producer.dataSource;
    // onboarding.completed has no consumer today (admin-service comes later and catches up by replay).
    const before = await profileQueue.count();
    const event = await ds.transaction((m) =>
      producer.outbox.publish(m, 'onboarding.completed', { userId: randomUUID(), completedAt: new Date().toISOString(), skipped: true }),
    );
    expect(await producer.outbox.relayOnce()).toBe(1);
    const [row] = await ds.query('SELECT published_at IS NOT NULL AS published FROM outbox WHERE id = $1', [event.id]);
    expect(row.published).toBe(true);
    expect(await profileQueue.count()).toBe(before);
  });
});

import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { eventQueueName, SERVICES, type EventEnvelope, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { DatabaseEnv } from '../../config/config';
import { ServiceModule } from '../../service.module';
import { type EventHandlerSet } from '../events.module';
import { OutboxService } from '../outbox.service';
import { EventConsumer } from '../event-consumer';
import { runMigrations } from '../../bootstrap/bootstrap';
import { waitFor } from '../../../testing/service-app';
import { coveringCatalogue } from './event-harness';

/** Records what the profile side handled, in its own table, inside the consumer's transaction. */
@Injectable()
class RecordingHandlers implements EventHandlerSet {
  handlers() {
    return coveringCatalogue(SERVICES.profile, {
      'user.registered': async (payload: UserRegisteredPayload, manager: import('typeorm').EntityManager) => {
        await manager.query('INSERT INTO seen_user (user_id, email) VALUES ($1, $2)', [payload.userId, payload.email]);
      },
    });
  }
}

@Module({})
class HandlersHost {}

/**
 * Building, migrating and closing services, and a consumer's first delivery, take seconds on a
 * busy machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(60_000);

async function build(service: (typeof SERVICES)[keyof typeof SERVICES], db: TestDatabase, redisUrl: string, prefix: string, withConsumer: boolean) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ServiceModule.forRoot({
        service,
        envClass: DatabaseEnv,
        // The consumer is started by the test once its tables exist (WORKERS=off keeps it stopped).
        env: { DATABASE_URL: db.url, REDIS_URL: redisUrl, KEY_PREFIX: prefix, OUTBOX_RELAY: 'off', WORKERS: 'off', LOG_LEVEL: 'silent' },
        entities: [],
        migrations: [],
        features: [HandlersHost],
        handlers: withConsumer ? RecordingHandlers : undefined,
      }),
    ],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('transactional outbox and idempotent consumer', () => {
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: TestingModule;
  const opened: TestingModule[] = [];

  beforeAll(async () => {
    [producerDb, consumerDb, ns] = await Promise.all([
      createTestDatabase('outbox_producer'),
      createTestDatabase('outbox_consumer'),
      createTestRedisNamespace('outbox'),
    ]);
    producer = await build(SERVICES.auth, producerDb, ns.url, ns.prefix, false);
    opened.push(producer);
    await runMigrations(producer);
  });

  afterAll(async () => {
    for (const m of opened) await m.close();
    await ns.cleanup();
    await producerDb.drop();
    await consumerDb.drop();
  });

  async function consumerCount(ds: DataSource) {
    const rows = await ds.query('SELECT count(*)::int AS n FROM seen_user');
    return rows[0].n as number;
  }

  it('keeps nothing when the producing transaction rolls back', async () => {
    const ds = producer.get(DataSource);
    const outbox = producer.get(OutboxService);
    await expect(
      ds.transaction(async (m) => {
        await outbox.publish(m, 'user.registered', {
          userId: '00000000-0000-4000-8000-000000000001',
          email: 'gone@mate.test',
          name: null,
          age: null,
          registeredAt: new Date().toISOString(),
        });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await outbox.relayOnce()).toBe(0);
  });

  it('delivers an event written while the consumer is stopped once it starts, and a redelivery changes nothing', async () => {
    const ds = producer.get(DataSource);
    const outbox = producer.get(OutboxService);
    const userId = '00000000-0000-4000-8000-000000000002';
    await ds.transaction((m) =>
      outbox.publish(m, 'user.registered', {
        userId,
        email: 'later@mate.test',
        name: 'Later',
        age: 30,
        registeredAt: new Date().toISOString(),
      }),
    );
    expect(await outbox.relayOnce()).toBe(1);
    // Relaying again finds nothing new: the row is stamped as published.
    expect(await outbox.relayOnce()).toBe(0);

    const connection = new Redis(ns.url, { maxRetriesPerRequest: null });
    const queue = new Queue(eventQueueName(SERVICES.profile), { connection, prefix: ns.prefix });
    expect(await queue.getWaitingCount()).toBe(1);

    // The consumer is deployed only now: migrated, its table made, then started.
    const consumer = await build(SERVICES.profile, consumerDb, ns.url, ns.prefix, true);
    opened.push(consumer);
    await runMigrations(consumer);
    const cds = consumer.get(DataSource);
    await cds.query('CREATE TABLE IF NOT EXISTS seen_user (user_id uuid, email text)');
    const consumerService = consumer.get(EventConsumer);
    consumerService.start();
    await waitFor(async () => (await queue.getCompletedCount()) === 1, { what: 'the consumer to handle the waiting event' });
    expect(await consumerCount(cds)).toBe(1);

    // A redelivery (same event id, new job) is recognised and changes nothing.
    const [envelope] = await ds.query("SELECT body FROM outbox WHERE kind = 'event'").then((rows: { body: EventEnvelope }[]) =>
      rows.map((r) => r.body).filter((b) => b.payload && (b.payload as UserRegisteredPayload).userId === userId),
    );
    const redelivered = await queue.add('user.registered', envelope, { jobId: `${envelope.id}-redelivered` });
    expect(await consumerService.handle(envelope)).toBe(false);
    // Read the job again once it is complete: a job read just before it finished holds no return value.
    await waitFor(async () => (await (await queue.getJob(redelivered.id as string))?.isCompleted()) === true, {
      what: 'the redelivered job to complete',
    });
    const done = await queue.getJob(redelivered.id as string);
    expect(done?.returnvalue).toBe('duplicate');
    expect(await queue.getCompletedCount()).toBe(2);
    expect(await consumerCount(cds)).toBe(1);
    await queue.close();
    await connection.quit();
  });
});

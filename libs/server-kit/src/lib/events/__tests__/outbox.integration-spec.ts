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

/** Records what the profile side handled, in its own table, inside the consumer's transaction. */
@Injectable()
class RecordingHandlers implements EventHandlerSet {
  handlers() {
    return {
      'user.registered': async (payload: UserRegisteredPayload, manager: import('typeorm').EntityManager) => {
        await manager.query('INSERT INTO seen_user (user_id, email) VALUES ($1, $2)', [payload.userId, payload.email]);
      },
      'user.verified': async () => undefined,
    };
  }
}

@Module({})
class HandlersHost {}

async function build(service: (typeof SERVICES)[keyof typeof SERVICES], db: TestDatabase, redisUrl: string, prefix: string, withConsumer: boolean) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ServiceModule.forRoot({
        service,
        envClass: DatabaseEnv,
        env: { DATABASE_URL: db.url, REDIS_URL: redisUrl, KEY_PREFIX: prefix, OUTBOX_RELAY: 'off', LOG_LEVEL: 'silent' },
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

    // The consumer starts only now.
    const consumer = await build(SERVICES.profile, consumerDb, ns.url, ns.prefix, true);
    opened.push(consumer);
    await runMigrations(consumer);
    const cds = consumer.get(DataSource);
    await cds.query('CREATE TABLE IF NOT EXISTS seen_user (user_id uuid, email text)');
    const deadline = Date.now() + 10000;
    while ((await consumerCount(cds)) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await consumerCount(cds)).toBe(1);

    // A redelivery (same event id, new job) is recognised and changes nothing.
    const [envelope] = await ds.query("SELECT body FROM outbox WHERE kind = 'event'").then((rows: { body: EventEnvelope }[]) =>
      rows.map((r) => r.body).filter((b) => b.payload && (b.payload as UserRegisteredPayload).userId === userId),
    );
    await queue.add('user.registered', envelope, { jobId: `${envelope.id}-redelivered` });
    const consumerService = consumer.get(EventConsumer);
    expect(await consumerService.handle(envelope)).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(await queue.getCompletedCount()).toBe(2);
    expect(await consumerCount(cds)).toBe(1);
    await queue.close();
    await connection.quit();
  });
});

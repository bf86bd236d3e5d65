import { randomUUID } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource, type EntityManager } from 'typeorm';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { register as metrics } from 'prom-client';
import { eventQueueName, SERVICES, type ServiceName, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { DatabaseEnv } from '../../../config/config';
import { runMigrations } from '../../../bootstrap/bootstrap';
import { waitFor } from '../../../../testing/service-app';
import { ServiceModule } from '../../../service.module';
import { type EventHandlerSet } from '../../events.module';
import { OutboxService } from '../../outbox.service';
import { EventConsumer } from '../../event-consumer';
import { consumerStatus, outboxStatus } from '../event-status';
import { redriveFailed } from '../redrive';
import { replayOutbox } from '../replay';
import { sqlOf } from '../sql';
import { coveringCatalogue } from '../../__tests__/event-harness';

/**
 * Building, migrating and closing two services, and waiting for consumers and retries, take
 * seconds on a busy machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s.
 */
jest.setTimeout(60_000);

/** user ids whose registration the consumer refuses (a poison event), until removed. */
const refused = new Set<string>();

/** A profile-service stand-in that records every registration it applies. */
@Injectable()
class SeenUsers implements EventHandlerSet {
  handlers() {
    return coveringCatalogue(SERVICES.profile, {
      'user.registered': async (payload: UserRegisteredPayload, manager: EntityManager) => {
        if (refused.has(payload.userId)) throw new Error('refused for the test');
        await manager.query('INSERT INTO seen_user (user_id) VALUES ($1)', [payload.userId]);
      },
    });
  }
}

@Module({})
class HandlersHost {}

async function service(name: ServiceName, db: TestDatabase, ns: { url: string; prefix: string }, consumer: boolean) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ServiceModule.forRoot({
        service: name,
        envClass: DatabaseEnv,
        env: {
          DATABASE_URL: db.url,
          REDIS_URL: ns.url,
          KEY_PREFIX: ns.prefix,
          OUTBOX_RELAY: 'off',
          // The consumer is started by the tests, when they want it "deployed".
          WORKERS: 'off',
          LOG_LEVEL: 'silent',
        },
        entities: [],
        migrations: [],
        features: [HandlersHost],
        handlers: consumer ? SeenUsers : undefined,
      }),
    ],
  }).compile();
  await moduleRef.init();
  await runMigrations(moduleRef);
  return moduleRef;
}

describe('event operations: status, redrive, replay', () => {
  let authDb: TestDatabase;
  let profileDb: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let producer: TestingModule;
  let consumer: TestingModule;
  let connection: Redis;
  let queue: Queue;

  beforeAll(async () => {
    [authDb, profileDb, ns] = await Promise.all([
      createTestDatabase('ops_auth'),
      createTestDatabase('ops_profile'),
      createTestRedisNamespace('ops'),
    ]);
    producer = await service(SERVICES.auth, authDb, ns, false);
    consumer = await service(SERVICES.profile, profileDb, ns, true);
    await consumer.get(DataSource).query('CREATE TABLE seen_user (user_id uuid NOT NULL)');
    connection = new Redis(ns.url, { maxRetriesPerRequest: null });
    queue = new Queue(eventQueueName(SERVICES.profile), { connection, prefix: ns.prefix });
  });

  afterAll(async () => {
    await queue.close();
    await connection.quit();
    await consumer.close();
    await producer.close();
    await ns.cleanup();
    await authDb.drop();
    await profileDb.drop();
  });

  afterEach(async () => {
    await consumer.get(EventConsumer).stop();
    await queue.obliterate({ force: true });
    await consumer.get(DataSource).query('TRUNCATE seen_user, processed_event, applied_version');
    await producer.get(DataSource).query('TRUNCATE outbox');
  });

  function register(userId = randomUUID()) {
    return producer.get(DataSource).transaction((m) =>
      producer.get(OutboxService).publish(m, 'user.registered', {
        userId,
        email: `${userId}@mate.test`,
        name: 'Ana',
        age: 30,
        registeredAt: new Date().toISOString(),
      }),
    );
  }

  async function seen(): Promise<string[]> {
    const rows: { user_id: string }[] = await consumer.get(DataSource).query('SELECT user_id FROM seen_user');
    return rows.map((r) => r.user_id);
  }

  function status() {
    return consumerStatus(SERVICES.profile, queue);
  }

  it('shows the unpublished rows, then the waiting jobs and their lag, then the consumer caught up', async () => {
    for (let i = 0; i < 3; i++) await register();
    const outbox = sqlOf(producer.get(DataSource));
    const backlog = await outboxStatus(SERVICES.auth, outbox);
    expect(backlog.unpublished).toBe(3);
    expect(backlog.oldestUnpublishedAt).not.toBeNull();
    // The same figures on /metrics: the kit registered both services' sources at start-up.
    const scraped = await metrics.metrics();
    expect(scraped).toContain('mate_outbox_unpublished_events{service="auth-service"} 3');
    expect(scraped).toMatch(/mate_outbox_oldest_unpublished_seconds\{service="auth-service"\} [0-9.e-]+/);

    expect(await producer.get(OutboxService).relayOnce()).toBe(3);
    expect(await outboxStatus(SERVICES.auth, outbox)).toMatchObject({ unpublished: 0, oldestUnpublishedAt: null, lagMs: 0 });
    const waiting = await status();
    expect(waiting).toMatchObject({ waiting: 3, active: 0, failed: 0, workers: 0, state: 'not-running' });
    expect(waiting.oldestWaitingAt).not.toBeNull();
    expect(await consumerStatus(SERVICES.profile, queue, { deployed: false })).toMatchObject({ state: 'not-deployed' });
    expect(await metrics.metrics()).toContain(
      'mate_queue_jobs{service="profile-service",queue="events.profile-service",state="waiting"} 3',
    );

    consumer.get(EventConsumer).start();
    const done = await waitFor(async () => {
      const s = await status();
      return s.state === 'caught-up' && s;
    }, { what: 'the consumer to catch up' });
    expect(done).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0, lagMs: 0, oldestWaitingAt: null });
    expect(done.workers).toBeGreaterThan(0);
    expect(await seen()).toHaveLength(3);
  });

  it('redrive re-runs exhausted jobs and the consumer applies them once', async () => {
    const userId = randomUUID();
    refused.add(userId);
    const { id: eventId } = await register(userId);
    const [{ body }] = await producer.get(DataSource).query('SELECT body FROM outbox WHERE id = $1', [eventId]);
    // One attempt, so the job is exhausted at once (the relay's own jobs retry ten times).
    await queue.add('user.registered', body, { jobId: eventId, attempts: 1 });
    consumer.get(EventConsumer).start();
    const failed = await waitFor(async () => {
      const s = await status();
      return s.failed === 1 && s;
    }, { what: 'the job to fail' });
    expect(failed.state).toBe('failed');
    expect(await seen()).toEqual([]);

    refused.delete(userId);
    expect(await redriveFailed(queue)).toBe(1);
    await waitFor(async () => (await seen()).length === 1, { what: 'the redriven event' });
    expect(await seen()).toEqual([userId]);
    expect(await status()).toMatchObject({ failed: 0, state: 'caught-up' });
    // Nothing left to redrive.
    expect(await redriveFailed(queue)).toBe(0);
  });

  it('replay fills a consumer that joined late with every past event, once, and a second replay changes nothing', async () => {
    const outbox = producer.get(OutboxService);
    const early = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const id of early) await register(id);
    expect(await outbox.relayOnce()).toBe(4);
    // The consumer joined the catalogue after these were relayed: its queue never had them.
    await queue.obliterate({ force: true });

    const late = [randomUUID(), randomUUID()];
    for (const id of late) await register(id);
    expect(await outbox.relayOnce()).toBe(2);
    consumer.get(EventConsumer).start();
    await waitFor(async () => (await seen()).length === 2, { what: 'the events delivered normally' });
    expect((await seen()).sort()).toEqual([...late].sort());

    const outboxes = [sqlOf(producer.get(DataSource))];
    expect(await replayOutbox({ consumer: SERVICES.profile, queue, outboxes })).toBe(6);
    await waitFor(async () => (await seen()).length === 6, { what: 'the replayed events' });
    const settled = async () => {
      const s = await status();
      return s.state === 'caught-up' && s;
    };
    await waitFor(settled, { what: 'the replay to be consumed' });
    expect((await seen()).sort()).toEqual([...early, ...late].sort());

    // A second replay: new job ids (no clash with the first run), every event recognised.
    const completedBefore = await queue.getCompletedCount();
    expect(await replayOutbox({ consumer: SERVICES.profile, queue, outboxes })).toBe(6);
    await waitFor(async () => (await queue.getCompletedCount()) === completedBefore + 6, { what: 'the second replay' });
    expect(await seen()).toHaveLength(6);
    expect(await consumer.get(DataSource).query('SELECT count(*)::int AS n FROM processed_event')).toEqual([{ n: 6 }]);
  });

  it('replay --since sends only the events stored from that instant, in created_at order', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, id] of ids.entries()) {
      const { id: eventId } = await register(id);
      // A second apart: `since` is a JavaScript Date (whole milliseconds), and events stored within
      // one millisecond (a fast machine) could not be told apart by it.
      await producer
        .get(DataSource)
        .query(`UPDATE outbox SET created_at = date_trunc('second', now()) - make_interval(secs => $2) WHERE id = $1`, [
          eventId,
          ids.length - i,
        ]);
    }
    const rows: { id: string; created_at: Date }[] = await producer
      .get(DataSource)
      .query("SELECT id, created_at FROM outbox WHERE kind = 'event' ORDER BY created_at DESC LIMIT 2");
    const since = rows[1].created_at;
    const sent = await replayOutbox({ consumer: SERVICES.profile, queue, outboxes: [sqlOf(producer.get(DataSource))], since });
    expect(sent).toBe(2);
    const waiting = await queue.getJobs(['waiting'], 0, -1, true);
    expect(waiting.map((j) => (j.data as { payload: UserRegisteredPayload }).payload.userId)).toEqual(ids.slice(1));
    expect(waiting.every((j) => j.id?.startsWith('replay-'))).toBe(true);
  });

  it('sends nothing to a service that consumes no event', async () => {
    expect(await replayOutbox({ consumer: SERVICES.gateway, queue, outboxes: [sqlOf(producer.get(DataSource))] })).toBe(0);
  });
});

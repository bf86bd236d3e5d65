import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { eventQueueName, SERVICES, type UserRegisteredPayload } from '@mate/contracts';
import {
  createTestDatabase,
  startOwnRedisServer,
  testInfra,
  type OwnRedisServer,
  type TestDatabase,
} from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { RELAY_PUBLISH_TIMEOUT_MS } from '../outbox.service';
import { startKitService, type KitService } from './event-harness';

/** The number: Redis stays down this long while producers keep writing. */
const OUTAGE_MS = 30_000;
/** One producer request (a transaction that writes a row and its event) this often. */
const WRITE_EVERY_MS = 200;
/** A request or an idle-in-transaction session may take this long at most. */
const LIMIT_MS = 1_000;
const PREFIX = 'outage';

jest.setTimeout(OUTAGE_MS + 150_000);

/**
 * Redis down must never hold a database transaction or lock: the relay claims rows in one short
 * statement, publishes outside any transaction and marks them in another; it resumes by itself.
 * Runs against a redis-server of its own (killed and restarted here), never the shared one.
 */
describe('Redis outage (own redis-server, killed for 30 s)', () => {
  let redis: OwnRedisServer;
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let producer: KitService;
  let consumer: KitService;
  let monitor: Client;

  beforeAll(async () => {
    [redis, producerDb, consumerDb] = await Promise.all([
      startOwnRedisServer(),
      createTestDatabase('outage_producer'),
      createTestDatabase('outage_consumer'),
    ]);
    const relayOn = { OUTBOX_RELAY: 'on', OUTBOX_POLL_MS: '100' };
    producer = await startKitService({
      service: SERVICES.auth,
      db: producerDb,
      redisUrl: redis.url,
      prefix: PREFIX,
      env: relayOn,
      setup: (ds) => ds.query('CREATE TABLE account (id uuid PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())'),
    });
    consumer = await startKitService({
      service: SERVICES.profile,
      db: consumerDb,
      redisUrl: redis.url,
      prefix: PREFIX,
      env: relayOn,
      setup: (ds) => ds.query('CREATE TABLE seen (event_id uuid NOT NULL, user_id uuid NOT NULL)'),
      handlers: {
        'user.registered': async (payload: UserRegisteredPayload, manager, envelope) => {
          await manager.query('INSERT INTO seen (event_id, user_id) VALUES ($1, $2)', [envelope.id, payload.userId]);
        },
        'user.verified': async () => undefined,
      },
    });
    monitor = new Client({ connectionString: (await testInfra()).postgresAdminUrl });
    await monitor.connect();
  });

  afterAll(async () => {
    await monitor?.end();
    await consumer?.close();
    await producer?.close();
    await redis?.stop();
    await producerDb?.drop();
    await consumerDb?.drop();
  });

  /** One producer request: its own row and its event, in one transaction. Answers how long it took. */
  async function register(): Promise<number> {
    const started = Date.now();
    const userId = randomUUID();
    await producer.dataSource.transaction(async (m) => {
      await m.query('INSERT INTO account (id) VALUES ($1)', [userId]);
      await producer.outbox.publish(m, 'user.registered', {
        userId,
        email: `${userId}@mate.test`,
        name: null,
        age: null,
        registeredAt: new Date().toISOString(),
      });
    });
    return Date.now() - started;
  }

  async function seen() {
    const [row] = await consumer.dataSource.query(
      'SELECT count(*)::int AS handled, count(DISTINCT event_id)::int AS distinct_events FROM seen',
    );
    return row as { handled: number; distinct_events: number };
  }

  /** Databases a test adds to the watch. */
  const extraDatabases: string[] = [];

  /** The longest any session of the test's databases has been idle in a transaction, in ms. */
  async function longestIdleInTransaction(): Promise<number> {
    const { rows } = await monitor.query(
      `SELECT coalesce(max(extract(epoch FROM now() - state_change) * 1000), 0)::float AS ms
         FROM pg_stat_activity
        WHERE datname = ANY($1) AND state LIKE 'idle in transaction%'`,
      [[producerDb.name, consumerDb.name, ...extraDatabases]],
    );
    return rows[0].ms;
  }

  it('keeps producers writing, holds no transaction open, and hands every event on exactly once after Redis returns', async () => {
    for (let i = 0; i < 5; i++) await register();
    await waitFor(async () => (await seen()).handled === 5, { what: 'the events written before the outage' });

    let watching = true;
    let longestIdle = 0;
    const watcher = (async () => {
      while (watching) {
        longestIdle = Math.max(longestIdle, await longestIdleInTransaction());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    await redis.kill();
    const durations: number[] = [];
    const outageEnds = Date.now() + OUTAGE_MS;
    while (Date.now() < outageEnds) {
      durations.push(await register());
      await new Promise((r) => setTimeout(r, WRITE_EVERY_MS));
    }
    // Nothing got through while Redis was away: the rows wait in the outbox.
    const [waiting] = await producer.dataSource.query(
      'SELECT count(*)::int AS n, max(last_error) AS error FROM outbox WHERE published_at IS NULL',
    );
    expect(waiting.n).toBe(durations.length);
    expect(waiting.error).toBeTruthy();

    await redis.start();
    const total = 5 + durations.length;
    await waitFor(async () => (await seen()).handled >= total, { what: 'every event after Redis returned', timeoutMs: 60_000 });
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(eventQueueName(SERVICES.profile), { connection, prefix: PREFIX });
    let counts: Record<string, number> = {};
    try {
      // Every event is handled by now; what can be left is a retry of a copy the relay sent twice
      // across the restart, waiting out its backoff (1, 2, 4, 8 s...). A stuck job never drains.
      await waitFor(
        async () => {
          counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          return Object.values(counts).every((n) => n === 0);
        },
        { what: 'the consumer queue to drain', timeoutMs: 60_000 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(counts)}`);
      });
    } finally {
      watching = false;
      await watcher;
      await queue.close();
      await connection.quit();
    }

    expect(durations.length).toBeGreaterThan(OUTAGE_MS / (WRITE_EVERY_MS + LIMIT_MS));
    expect(Math.max(...durations)).toBeLessThan(LIMIT_MS);
    expect(longestIdle).toBeLessThan(LIMIT_MS);
    expect(await seen()).toEqual({ handled: total, distinct_events: total });
    const [left] = await producer.dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
    expect(left.n).toBe(0);
    process.stdout.write(
      `redis outage: ${durations.length} writes in ${OUTAGE_MS / 1000} s, slowest ${Math.max(...durations)} ms, ` +
        `longest idle in transaction ${Math.round(longestIdle)} ms\n`,
    );
  });

  it('answers within its timeout when Redis was down from the start, gives the rows back, and publishes once Redis is up', async () => {
    // Its own database: the running producer's relay must not take the row first.
    const lateDb = await createTestDatabase('outage_late');
    extraDatabases.push(lateDb.name);
    await redis.kill();
    const late = await startKitService({ service: SERVICES.auth, db: lateDb, redisUrl: redis.url, prefix: PREFIX });
    try {
      const userId = randomUUID();
      const event = await late.dataSource.transaction((m) =>
        late.outbox.publish(m, 'user.registered', {
          userId,
          email: `${userId}@mate.test`,
          name: null,
          age: null,
          registeredAt: new Date().toISOString(),
        }),
      );
      const started = Date.now();
      await expect(late.outbox.relayOnce()).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(RELAY_PUBLISH_TIMEOUT_MS + LIMIT_MS);
      const [row] = await late.dataSource.query(
        'SELECT published_at, claimed_until, last_error, attempts FROM outbox WHERE id = $1',
        [event.id],
      );
      expect(row).toMatchObject({ published_at: null, claimed_until: null, attempts: 1 });
      expect(row.last_error).toBeTruthy();
      expect(await longestIdleInTransaction()).toBeLessThan(LIMIT_MS);

      await redis.start();
      await waitFor(
        async () => {
          await late.outbox.relayOnce().catch(() => 0);
          const [published] = await late.dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [event.id]);
          return published.published_at !== null;
        },
        { what: 'the relay to publish once Redis is up', intervalMs: 200 },
      );
      await waitFor(
        async () =>
          (await consumer.dataSource.query('SELECT 1 FROM seen WHERE event_id = $1', [event.id])).length === 1,
        { what: 'the consumer to handle it' },
      );
    } finally {
      await late.close();
      await lateDb.drop();
    }
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { Queue } from 'bullmq';
import { EVENT_CATALOGUE, eventQueueName, SERVICES, type EventEnvelope, type UserRegisteredPayload } from '@mate/contracts';
import { createTestDatabase, startOwnRedisServer, type OwnRedisServer, type TestDatabase } from '@mate/testing';
import { waitFor } from '../../../testing/service-app';
import { killOnExit, WORKSPACE } from '../../../testing/managed-process';
import { startKitService, type KitService } from './event-harness';

jest.setTimeout(240_000);

/** 2,000 events: 40 members with 50 versions each, relayed in batches of 100 (RELAY_BATCH_SIZE). */
const MEMBERS = 40;
const VERSIONS = 50;
const TOTAL = MEMBERS * VERSIONS;
const PREFIX = 'relay-crash';
const FIXTURE = path.join(__dirname, 'fixtures/relay-process.ts');

const registered = (userId: string, n: number): UserRegisteredPayload => ({
  userId,
  email: `${userId}@example.com`,
  name: `Version ${n}`,
  age: 30,
  registeredAt: new Date().toISOString(),
});

/**
 * A relay killed (SIGKILL) in the middle of a pass, between its claim and its mark: once its lease
 * runs out another relay publishes what it held, every event is in each consumer's queue exactly
 * once (the job id is the outbox row id), and the consumer applies each member's versions in
 * order. The killed relay is a process of this test's own; Redis is a redis-server of its own.
 */
describe('the outbox relay dies mid-pass', () => {
  let redis: OwnRedisServer;
  let producerDb: TestDatabase;
  let consumerDb: TestDatabase;
  let writer: KitService;
  let secondRelay: KitService | undefined;
  let consumer: KitService | undefined;
  let monitor: Client;
  let relay: ChildProcess | undefined;
  const queues: Queue[] = [];

  beforeAll(async () => {
    [redis, producerDb, consumerDb] = await Promise.all([
      startOwnRedisServer(),
      createTestDatabase('relay_crash_producer'),
      createTestDatabase('relay_crash_consumer'),
    ]);
    writer = await startKitService({ service: SERVICES.auth, db: producerDb, redisUrl: redis.url, prefix: PREFIX });
    monitor = new Client({ connectionString: producerDb.url });
    await monitor.connect();
  });

  afterAll(async () => {
    if (relay && relay.exitCode === null && relay.signalCode === null) relay.kill('SIGKILL');
    await Promise.all(queues.map((q) => q.close()));
    await monitor?.end();
    await secondRelay?.close();
    await consumer?.close();
    await writer?.close();
    await redis?.stop();
    await producerDb?.drop();
    await consumerDb?.drop();
  });

  it('publishes every event exactly once, in order per member, after the relay was killed between claim and mark', async () => {
    const members = Array.from({ length: MEMBERS }, () => randomUUID());
    for (const userId of members) {
      await writer.dataSource.transaction(async (manager) => {
        for (let n = 1; n <= VERSIONS; n++) await writer.outbox.publish(manager, 'user.registered', registered(userId, n));
      });
    }

    relay = spawn(process.execPath, ['-r', '@swc-node/register', FIXTURE], {
      cwd: WORKSPACE,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        NODE_ENV: 'test',
        DATABASE_URL: producerDb.url,
        REDIS_URL: redis.url,
        KEY_PREFIX: PREFIX,
        OUTBOX_RELAY: 'on',
        OUTBOX_POLL_MS: '50',
        WORKERS: 'off',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    killOnExit(relay);
    let output = '';
    relay.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    relay.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((resolve) => relay?.once('exit', () => resolve()));

    // Watch the outbox until a pass holds rows it has not marked yet (after at least one pass
    // completed), then kill the relay on the spot.
    let held = 0;
    await waitFor(
      async () => {
        if (relay?.exitCode !== null) throw new Error(`the relay exited on its own:\n${output}`);
        const { rows } = await monitor.query<{ published: number; held: number }>(
          `SELECT count(*) FILTER (WHERE published_at IS NOT NULL)::int AS published,
                  count(*) FILTER (WHERE published_at IS NULL AND claimed_until > now())::int AS held
             FROM outbox`,
        );
        if (rows[0].published === TOTAL) throw new Error('the relay published everything before it could be caught mid-pass');
        if (rows[0].published === 0 || rows[0].held === 0) return false;
        relay?.kill('SIGKILL');
        held = rows[0].held;
        return true;
      },
      { timeoutMs: 120_000, intervalMs: 1, what: 'a relay pass between its claim and its mark' },
    );
    await exited;
    const left = await monitor.query<{ held: number; published: number }>(
      `SELECT count(*) FILTER (WHERE published_at IS NULL AND claimed_until > now())::int AS held,
              count(*) FILTER (WHERE published_at IS NOT NULL)::int AS published FROM outbox`,
    );
    console.log(`relay killed holding ${held} rows (${left.rows[0].held} still leased, ${left.rows[0].published} of ${TOTAL} published)`);
    expect(left.rows[0].published).toBeLessThan(TOTAL);

    // The dead relay's lease (RELAY_CLAIM_LEASE_MS, 30 s) runs out; not waited for here.
    await monitor.query('UPDATE outbox SET claimed_until = now() WHERE published_at IS NULL AND claimed_until IS NOT NULL');

    consumer = await startKitService({
      service: SERVICES.profile,
      db: consumerDb,
      redisUrl: redis.url,
      prefix: PREFIX,
      consumerConcurrency: 4,
      setup: (ds) => ds.query('CREATE TABLE applied (seq bigserial PRIMARY KEY, user_id uuid NOT NULL, version int NOT NULL)'),
      handlers: {
        'user.registered': async (payload, manager, envelope) => {
          await manager.query('INSERT INTO applied (user_id, version) VALUES ($1, $2)', [payload.userId, envelope.aggregateVersion]);
        },
      },
    });
    secondRelay = await startKitService({
      service: SERVICES.auth,
      db: producerDb,
      redisUrl: redis.url,
      prefix: PREFIX,
      env: { OUTBOX_RELAY: 'on', OUTBOX_POLL_MS: '50' },
    });
    await waitFor(
      async () => (await monitor.query('SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT 1')).rows.length === 0,
      { timeoutMs: 60_000, what: 'every row published by the second relay' },
    );

    // Exactly once in every consumer's queue: one job per row, its id the row's.
    const rows = await monitor.query<{ id: string; version: number }>(`SELECT id, (body->>'aggregateVersion')::int AS version FROM outbox`);
    expect(rows.rows).toHaveLength(TOTAL);
    for (const service of EVENT_CATALOGUE['user.registered'].consumers) {
      const queue = new Queue(eventQueueName(service), { connection: { url: redis.url }, prefix: PREFIX });
      queues.push(queue);
      const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized'], 0, -1);
      const ids = jobs.map((j) => j.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(new Set(rows.rows.map((r) => r.id)));
      const versionOf = new Map(rows.rows.map((r) => [r.id, r.version]));
      for (const job of jobs) expect((job.data as EventEnvelope).aggregateVersion).toBe(versionOf.get(job.id ?? ''));
    }

    // The consumer took every event once and applied each member's versions in order, ending at the last.
    const consumerQueries = consumer.dataSource;
    await waitFor(
      async () => (await consumerQueries.query('SELECT count(*)::int AS n FROM processed_event'))[0].n === TOTAL,
      { timeoutMs: 120_000, what: 'every event taken by the consumer' },
    );
    const applied: { user_id: string; version: number }[] = await consumerQueries.query('SELECT user_id, version FROM applied ORDER BY seq');
    const last = new Map<string, number>();
    for (const { user_id, version } of applied) {
      expect(version).toBeGreaterThan(last.get(user_id) ?? 0);
      last.set(user_id, version);
    }
    for (const userId of members) expect(last.get(userId)).toBe(VERSIONS);
    const outcomes: { outcome: string | null; n: number }[] = await consumerQueries.query(
      'SELECT outcome, count(*)::int AS n FROM processed_event GROUP BY outcome',
    );
    expect(outcomes.find((o) => o.outcome === 'duplicate')).toBeUndefined();
  });
});

import { randomUUID } from 'node:crypto';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { Queue, type Job } from 'bullmq';
import Redis from 'ioredis';
import { SERVICES } from '@mate/contracts';
import { createTestDatabase, createTestRedisNamespace, type TestDatabase } from '@mate/testing';
import { DatabaseEnv } from '../../../config/config';
import { runMigrations } from '../../../bootstrap/bootstrap';
import { waitFor } from '../../../../testing/service-app';
import { ServiceModule } from '../../../service.module';
import { EventMaintenance, maintenanceQueueName, PRUNE_SCHEDULER_ID, type PruneRun } from '../event-maintenance';

/**
 * Starting and closing three replicas and waiting for six scheduler ticks take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(60_000);

const EVERY_MS = 250;

describe('pruning of the event tables on a job scheduler', () => {
  let db: TestDatabase;
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  const replicas: TestingModule[] = [];

  async function replica(workers: 'on' | 'off') {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ServiceModule.forRoot({
          service: SERVICES.auth,
          envClass: DatabaseEnv,
          env: {
            DATABASE_URL: db.url,
            REDIS_URL: ns.url,
            KEY_PREFIX: ns.prefix,
            OUTBOX_RELAY: 'off',
            WORKERS: workers,
            EVENT_PRUNE_EVERY_MS: String(EVERY_MS),
            LOG_LEVEL: 'silent',
          },
          entities: [],
          migrations: [],
          features: [],
        }),
      ],
    }).compile();
    await moduleRef.init();
    return moduleRef;
  }

  beforeAll(async () => {
    [db, ns] = await Promise.all([createTestDatabase('prune'), createTestRedisNamespace('prune')]);
    // Migrated by a one-off command (no workers), as `main.js migrate` does.
    const migrator = await replica('off');
    await runMigrations(migrator);
    await migrator.close();
  });

  afterAll(async () => {
    for (const r of replicas) await r.close();
    await ns.cleanup();
    await db.drop();
  });

  it('runs once per tick across two replicas, deletes what is past the retention and keeps the rest', async () => {
    const seed = await replica('off');
    const ds = seed.get(DataSource);
    const ids = {
      oldPublished: randomUUID(),
      oldUnpublished: randomUUID(),
      recentPublished: randomUUID(),
      oldProcessed: randomUUID(),
      recentProcessed: randomUUID(),
    };
    const row = (id: string, age: string, published: boolean) =>
      ds.query(
        `INSERT INTO outbox (id, kind, name, body, created_at, published_at)
         VALUES ($1, 'event', 'user.verified', '{}', now() - $2::interval, ${published ? "now() - $2::interval" : 'NULL'})`,
        [id, age],
      );
    await row(ids.oldPublished, '8 days', true);
    // Never relayed (say, a name only a newer relay knows): pruning must not lose it.
    await row(ids.oldUnpublished, '8 days', false);
    await row(ids.recentPublished, '6 days', true);
    await ds.query(
      `INSERT INTO processed_event (event_id, name, processed_at) VALUES
         ($1, 'user.registered', now() - interval '8 days'), ($2, 'user.registered', now() - interval '1 hour')`,
      [ids.oldProcessed, ids.recentProcessed],
    );
    await seed.close();

    replicas.push(await replica('on'), await replica('on'));
    await Promise.all(replicas.map((r) => r.get(EventMaintenance).ready));

    const connection = new Redis(ns.url, { maxRetriesPerRequest: null });
    const queue = new Queue(maintenanceQueueName(SERVICES.auth), { connection, prefix: ns.prefix });
    try {
      // Both replicas upserted the same scheduler: there is one, and both workers listen (a worker
      // registers its connection on its own time, after the replica's start has returned).
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual([PRUNE_SCHEDULER_ID]);
      await waitFor(async () => (await queue.getWorkersCount()) === 2, { what: "both replicas' workers" });

      const ds1 = replicas[0].get(DataSource);
      await waitFor(
        async () =>
          (await ds1.query('SELECT 1 FROM outbox WHERE id = $1', [ids.oldPublished])).length === 0 &&
          (await ds1.query('SELECT 1 FROM processed_event WHERE event_id = $1', [ids.oldProcessed])).length === 0,
        { what: 'the old rows to be pruned' },
      );
      const outboxLeft: { id: string }[] = await ds1.query('SELECT id FROM outbox ORDER BY id');
      expect(outboxLeft.map((r) => r.id).sort()).toEqual([ids.oldUnpublished, ids.recentPublished].sort());
      const processedLeft: { event_id: string }[] = await ds1.query('SELECT event_id FROM processed_event');
      expect(processedLeft.map((r) => r.event_id)).toEqual([ids.recentProcessed]);

      // Several ticks later: one run per tick, never one per replica.
      const runs = await waitFor(
        async () => {
          const done: Job<unknown, PruneRun>[] = await queue.getJobs(['completed'], 0, -1, true);
          return done.length >= 6 && done;
        },
        { what: 'six prune runs' },
      );
      const ticks = runs.map((job) => Number(String(job.id).split(':').pop())).sort((a, b) => a - b);
      expect(new Set(ticks).size).toBe(runs.length);
      for (let i = 1; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1]).toBeGreaterThanOrEqual(EVERY_MS);
      const replicaIds = new Set(replicas.map((r) => r.get(EventMaintenance).replica));
      for (const run of runs) expect(replicaIds).toContain(run.returnvalue.replica);
      // The later runs found nothing more to delete.
      expect(runs[runs.length - 1].returnvalue).toMatchObject({ outbox: 0, processedEvents: 0 });
    } finally {
      await queue.close();
      await connection.quit();
    }
  });
});

import { Queue, type Job } from 'bullmq';
import Redis from 'ioredis';
import { QueueName } from '@mate/contracts';
import { startService, waitFor, type RunningService } from '@mate/server-kit/testing';
import { AppModule } from '../../app.module';
import {
  startMatchingTestBed,
  type MatchingTestBed,
  type Place,
  type TestMember,
} from '../../__tests__/matching-test-bed';
import { PRIOR_VERSION } from '@mate/matching-model';
import { MIN_SWIPES_TO_FIT, RefitService, type RefitOutcome } from '../refit.service';
import { REFIT_SCHEDULER_ID } from '../refit.worker';
import { ScoringService } from '../scoring.service';

const MEMBERS = 30;
const REFIT_EVERY_MS = 300;

describe('refitting the scoring model (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;
  let members: TestMember[];
  let place: Place;

  beforeAll(async () => {
    // No workers here: the refits of this replica are the ones the test runs.
    bed = await startMatchingTestBed('scoring_refit', { env: { WORKERS: 'off' } });
    place = bed.place();
    members = [];
    for (let i = 0; i < MEMBERS; i++) {
      members.push(
        await bed.member({
          ...place,
          age: 25 + (i % 10),
          interests: i % 2 ? ['Travel', 'Art'] : ['Music', 'Gaming'],
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  });

  async function swipeAll(): Promise<void> {
    // Everyone swipes everyone: likes within the same half of the members, passes across.
    const pairs = members.flatMap((a, i) =>
      members.flatMap((b, j) => (i === j ? [] : [[a.userId, b.userId, i % 2 === j % 2] as const])),
    );
    await bed.dataSource.query(
      'INSERT INTO swipe (swiper_id, target_id, liked) SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bool[])',
      [pairs.map((p) => p[0]), pairs.map((p) => p[1]), pairs.map((p) => p[2])],
    );
  }

  it('keeps the prior while there are too few swipes, then publishes a fitted model that suggestions use', async () => {
    const refits = bed.app.get(RefitService);
    const scoring = bed.app.get(ScoringService);

    const early = await refits.refit();
    expect(early).toMatchObject({ published: false, version: PRIOR_VERSION, swipes: 0 });
    expect(await bed.dataSource.query('SELECT version FROM scoring_model')).toEqual([]);

    await swipeAll();
    const outcome = await refits.refit();
    expect(MEMBERS * (MEMBERS - 1)).toBeGreaterThanOrEqual(MIN_SWIPES_TO_FIT);
    if (!outcome.published) throw new Error(`refit did not publish: ${outcome.reason}`);
    expect(outcome.version).toMatch(/^fit-/);
    expect(outcome.swipes).toBe(MEMBERS * (MEMBERS - 1));
    expect(outcome.metrics.auc).toBeGreaterThan(0.9);

    const [row] = await bed.dataSource.query(
      'SELECT version, trained_on, params, metrics FROM scoring_model',
    );
    expect(row).toMatchObject({
      version: outcome.version,
      params: { kind: 'fitted', version: outcome.version },
    });
    expect(row.trained_on).toBe(outcome.metrics.trainedOn);
    const factors: { model_version: string; taste: number[] }[] = await bed.dataSource.query(
      'SELECT model_version, taste FROM member_factor',
    );
    expect(factors).toHaveLength(MEMBERS);
    for (const f of factors)
      expect(f).toMatchObject({ model_version: outcome.version, taste: expect.any(Array) });
    expect(factors[0].taste).toHaveLength(row.params.factorDim);

    // A newcomer's suggestions are ranked by the new model, and its version is recorded with them.
    expect(scoring.model.version).toBe(outcome.version);
    const newcomer = await bed.member({ ...place, age: 30 });
    const suggestions = await bed.suggestions(members[0]);
    expect(suggestions.map((s) => s.user.id)).toEqual([newcomer.userId]);
    const served: { model_version: string }[] = await bed.dataSource.query(
      'SELECT model_version FROM impression WHERE viewer_id = $1',
      [members[0].userId],
    );
    expect(served).toEqual([{ model_version: outcome.version }]);
  });

  it('picks up a model published by another replica', async () => {
    const scoring = bed.app.get(ScoringService);
    const [current] = await bed.dataSource.query(
      'SELECT params FROM scoring_model ORDER BY created_at DESC LIMIT 1',
    );
    const version = 'fit-from-another-replica';
    await bed.dataSource.query(
      `INSERT INTO scoring_model (version, created_at, trained_on, params) VALUES ($1, now() + interval '1 second', 0, $2)`,
      [version, JSON.stringify({ ...current.params, version })],
    );
    await scoring.refresh();
    expect(scoring.model.version).toBe(version);
  });

  it('runs the scheduled refit once per tick across two replicas with workers', async () => {
    const env = { ...bed.env, WORKERS: 'on', MODEL_REFIT_INTERVAL_MS: String(REFIT_EVERY_MS) };
    const replicas: RunningService[] = [];
    const connection = new Redis(bed.env.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(QueueName.MatchingRefit, { connection, prefix: bed.env.KEY_PREFIX });
    try {
      for (let i = 0; i < 2; i++)
        replicas.push(await startService((e) => AppModule.forRoot(e), env, {}, { migrate: false }));
      await waitFor(async () => (await queue.getWorkersCount()) === 2, { what: 'both refit workers' });
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual([REFIT_SCHEDULER_ID]);

      const runs = await waitFor(
        async () => {
          const done: Job<unknown, RefitOutcome>[] = await queue.getJobs(['completed'], 0, -1, true);
          return done.length >= 4 && done;
        },
        { what: 'four scheduled refits' },
      );
      const ticks = runs.map((job) => Number(String(job.id).split(':').pop())).sort((a, b) => a - b);
      expect(new Set(ticks).size).toBe(runs.length);
      for (let i = 1; i < ticks.length; i++)
        expect(ticks[i] - ticks[i - 1]).toBeGreaterThanOrEqual(REFIT_EVERY_MS);
      // Each run published its own model: one version per tick, never two.
      const versions = runs.map((job) => job.returnvalue.version);
      expect(new Set(versions).size).toBe(runs.length);
      const stored: { version: string }[] = await bed.dataSource.query('SELECT version FROM scoring_model');
      expect(stored.map((r) => r.version)).toEqual(expect.arrayContaining(versions));
    } finally {
      for (const r of replicas) await r.close();
      await queue.close();
      await connection.quit();
    }
  }, 60_000);
});

import { Inject, Injectable } from '@nestjs/common';
import { Queue, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { QueueName, SERVICES } from '@mate/contracts';
import {
  HealthRegistry,
  LOGGER,
  QUEUE_CONNECTION,
  queuePrefixOf,
  QueueWorker,
  queueWorkerSettings,
  withTimeout,
  type RedisClient,
} from '@mate/server-kit';
import { MatchingEnv } from '../matching.env';
import { RefitService, type RefitOutcome } from './refit.service';

export const REFIT_SCHEDULER_ID = 'refit-scoring-model';
export const REFIT_JOB_NAME = 'refit-scoring-model';
/** Runs kept in Redis, so an operator (and the tests) can see the last ones with their outcome. */
const KEEP_RUNS = 50;
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The scheduled refit: every replica with workers upserts the same BullMQ job scheduler (one id),
 * which makes one job per MODEL_REFIT_INTERVAL_MS for the whole deployment, and whichever
 * replica's worker takes it refits. A per-replica timer would refit N times per tick. Off when
 * WORKERS=off (API-only replicas, one-off commands: `main.js refit` runs RefitService directly).
 */
@Injectable()
export class RefitWorker extends QueueWorker<Record<string, never>, RefitOutcome> {
  private scheduler: Queue | null = null;
  /** Settles once the scheduler is upserted (or that failed and was logged). */
  ready: Promise<void> = Promise.resolve();

  constructor(
    @Inject(MatchingEnv) private readonly env: MatchingEnv,
    private readonly refits: RefitService,
    @Inject(QUEUE_CONNECTION) private readonly queueConnection: RedisClient,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, {
        service: SERVICES.matching,
        queue: QueueName.MatchingRefit,
        concurrency: 1,
      }),
      logger,
      health,
    );
  }

  override onModuleInit() {
    if (!this.settings.enabled) return;
    super.onModuleInit();
    this.scheduler = new Queue(this.settings.queue, {
      connection: this.queueConnection,
      prefix: queuePrefixOf(this.env, this.settings.queue),
    });
    // Redis trouble is reported by the worker and readiness; the scheduler queue only schedules.
    this.scheduler.on('error', () => undefined);
    // Not awaited: with Redis down, start-up must not wait for it; BullMQ retries the connection.
    this.ready = this.scheduler
      .upsertJobScheduler(
        REFIT_SCHEDULER_ID,
        { every: this.env.MODEL_REFIT_INTERVAL_MS },
        { name: REFIT_JOB_NAME, opts: { removeOnComplete: KEEP_RUNS, removeOnFail: KEEP_RUNS } },
      )
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'could not schedule the scoring refit'),
      );
  }

  override async onApplicationShutdown() {
    await super.onApplicationShutdown();
    const scheduler = this.scheduler;
    this.scheduler = null;
    // A queue that never reached Redis (down at start-up) would wait for it forever on close.
    if (scheduler) await withTimeout(scheduler.close(), CLOSE_TIMEOUT_MS).catch(() => undefined);
  }

  protected process(): Promise<RefitOutcome> {
    return this.refits.refit();
  }

  protected requestIdOf(job: Job): string {
    return `refit:${job.id}`;
  }
}

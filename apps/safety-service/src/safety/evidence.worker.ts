import { Inject, Injectable } from '@nestjs/common';
import { Queue, UnrecoverableError } from 'bullmq';
import { isUUID } from 'class-validator';
import type { Logger } from 'pino';
import { QueueName, SERVICES, type SafetyEvidenceJobData } from '@mate/contracts';
import {
  HealthRegistry,
  JobWorker,
  LOGGER,
  QUEUE_CONNECTION,
  queuePrefixOf,
  queueWorkerSettings,
  ServiceCallError,
  withTimeout,
  type RedisClient,
} from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';
import { ReportsService, type EvidenceOutcome } from './reports.service';

export const EVIDENCE_SWEEP_SCHEDULER_ID = 'safety-evidence-sweep';
const KEEP_RUNS = 50;
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The worker of `jobs.safety-evidence`, which fills the message snapshot of a report stored while
 * chat-service was down or slow:
 *
 * - a report's own job (`{ reportId }`, written in the report's transaction): a failed call throws,
 *   so BullMQ retries it with the outbox's backoff (exponential from 1 s, 10 attempts, about 8 min),
 *   except a refusal (chat answered 4xx), which would answer the same again;
 * - the sweep (`{ sweep: true }`), a BullMQ job scheduler (one run per tick across replicas, like
 *   matching's refit), retries every report still pending, so a snapshot is filled however long
 *   chat was away.
 *
 * Off when WORKERS=off (API-only replicas, one-off commands).
 */
@Injectable()
export class EvidenceWorker extends JobWorker<QueueName.SafetyEvidence, EvidenceOutcome | number> {
  private scheduler: Queue | null = null;
  /** Settles once the sweep is scheduled (or that failed and was logged). */
  ready: Promise<void> = Promise.resolve();

  constructor(
    @Inject(SafetyEnv) private readonly env: SafetyEnv,
    private readonly reports: ReportsService,
    @Inject(QUEUE_CONNECTION) private readonly queueConnection: RedisClient,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, { service: SERVICES.safety, queue: QueueName.SafetyEvidence, concurrency: 2 }),
      logger,
      health,
    );
  }

  override onModuleInit() {
    if (!this.settings.enabled) return;
    super.onModuleInit();
    this.scheduler = new Queue(this.settings.queue, { connection: this.queueConnection, prefix: queuePrefixOf(this.env, this.settings.queue) });
    // Redis trouble is reported by the worker and readiness; this queue only schedules.
    this.scheduler.on('error', () => undefined);
    // Not awaited: with Redis down, start-up must not wait for it; BullMQ retries the connection.
    this.ready = this.scheduler
      .upsertJobScheduler(
        EVIDENCE_SWEEP_SCHEDULER_ID,
        { every: this.env.SAFETY_EVIDENCE_SWEEP_MS },
        { name: EVIDENCE_SWEEP_SCHEDULER_ID, data: { sweep: true }, opts: { removeOnComplete: KEEP_RUNS, removeOnFail: KEEP_RUNS } },
      )
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'could not schedule the report evidence sweep'),
      );
  }

  override async onApplicationShutdown() {
    await super.onApplicationShutdown();
    const scheduler = this.scheduler;
    this.scheduler = null;
    if (scheduler) await withTimeout(scheduler.close(), CLOSE_TIMEOUT_MS).catch(() => undefined);
  }

  protected async handle(data: SafetyEvidenceJobData): Promise<EvidenceOutcome | number> {
    if (data && 'sweep' in data && data.sweep === true) return this.reports.sweepEvidence();
    const reportId = data && 'reportId' in data ? data.reportId : undefined;
    if (typeof reportId !== 'string' || !isUUID(reportId)) throw new UnrecoverableError('no report id');
    try {
      return await this.reports.fillEvidence(reportId.toLowerCase());
    } catch (e) {
      // Chat refused the call itself (a 4xx): asking again will not change that; the sweep still tries.
      if (e instanceof ServiceCallError && !e.retryable) throw new UnrecoverableError(e.message);
      throw e;
    }
  }
}

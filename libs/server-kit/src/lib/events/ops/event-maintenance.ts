import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Queue, type Job } from 'bullmq';
import type { RedisClient } from '../../redis/redis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { eventQueueName, eventsConsumedBy, serviceDefinition, type ServiceName } from '@mate/contracts';
import { SERVICE_ENV, type BaseServiceEnv } from '../../config/config';
import { SERVICE_NAME } from '../../core.module';
import { LOGGER } from '../../logging/logger';
import { QueueWorker, queueWorkerSettings } from '../../workers/queue-worker';
import { QUEUE_CONNECTION, queuePrefixOf } from '../../redis/redis';
import { withTimeout } from '../../timeout';
import { registerEventMetrics } from './event-metrics';
import { DAY_MS, pruneEventTables, type PruneResult } from './pruning';
import { sqlOf } from './sql';

/** The queue of a service's own housekeeping jobs; shared by its replicas, never by other services. */
export function maintenanceQueueName(service: ServiceName): string {
  return `maintenance.${service}`;
}

export const PRUNE_SCHEDULER_ID = 'prune-event-tables';
export const PRUNE_JOB_NAME = 'prune-event-tables';
/** Runs kept in Redis, so an operator (and the tests) can see the last ones. */
const KEEP_RUNS = 50;
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Without a listener BullMQ prints every connection error of a queue to the console. Redis trouble
 * is reported once by the workers and by readiness; these queues only read counts and schedule.
 */
function quiet(queue: Queue): Queue {
  queue.on('error', () => undefined);
  return queue;
}

/** What a prune run answers (its BullMQ return value). */
export interface PruneRun extends PruneResult {
  replica: string;
}

/**
 * Event housekeeping every service with an outbox gets from the kit:
 * - pruning: a BullMQ job scheduler (upserted by every replica under one id) creates one job per
 *   tick for the whole deployment, and whichever replica's worker takes it deletes published
 *   outbox rows and processed_event rows older than EVENT_RETENTION_DAYS. A per-replica timer
 *   would run N times per tick and race itself.
 * - metrics: its outbox backlog and consumer queue on `/metrics`.
 */
@Injectable()
export class EventMaintenance extends QueueWorker<Record<string, never>, PruneRun> {
  /** Names this replica in prune results (tests tell the replicas' runs apart with it). */
  readonly replica = `${process.pid}-${randomBytes(3).toString('hex')}`;
  private scheduler: Queue | null = null;
  /** The queues this service's workers take, reported on /metrics by every replica. */
  private workQueues: Queue[] = [];
  private stopMetrics: (() => void) | null = null;
  /** Settles once the scheduler is upserted (or that failed and was logged). */
  ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_ENV) private readonly env: BaseServiceEnv,
    @Inject(SERVICE_NAME) private readonly service: ServiceName,
    @Inject(QUEUE_CONNECTION) private readonly queueConnection: RedisClient,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(
      queueWorkerSettings(env, { service, queue: maintenanceQueueName(service), concurrency: 1 }),
      logger,
    );
  }

  override onModuleInit() {
    const names = [
      ...(eventsConsumedBy(this.service).length > 0 ? [eventQueueName(this.service)] : []),
      ...(serviceDefinition(this.service)?.queues ?? []),
    ];
    this.workQueues = names.map((name) => quiet(new Queue(name, { connection: this.queueConnection, prefix: queuePrefixOf(this.env, name) })));
    this.stopMetrics = registerEventMetrics({ service: this.service, outbox: sqlOf(this.dataSource), queues: this.workQueues });
    if (!this.settings.enabled) return;
    super.onModuleInit();
    this.scheduler = quiet(new Queue(this.settings.queue, { connection: this.queueConnection, prefix: queuePrefixOf(this.env, this.settings.queue) }));
    // Not awaited: with Redis down, start-up must not wait for it; BullMQ retries the connection.
    this.ready = this.scheduler
      .upsertJobScheduler(
        PRUNE_SCHEDULER_ID,
        { every: this.env.EVENT_PRUNE_EVERY_MS },
        { name: PRUNE_JOB_NAME, opts: { removeOnComplete: KEEP_RUNS, removeOnFail: KEEP_RUNS } },
      )
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'could not schedule event pruning'),
      );
  }

  override async onApplicationShutdown() {
    this.stopMetrics?.();
    await super.onApplicationShutdown();
    // A queue that never reached Redis (down at start-up) would wait for it forever on close.
    await Promise.allSettled(
      [this.scheduler, ...this.workQueues].map((q) => q && withTimeout(q.close(), CLOSE_TIMEOUT_MS)),
    );
  }

  /** Deletes what is past the retention in this service's database. */
  async prune(): Promise<PruneRun> {
    const result = await pruneEventTables(sqlOf(this.dataSource), this.env.EVENT_RETENTION_DAYS * DAY_MS);
    this.logger.info({ ...result, retentionDays: this.env.EVENT_RETENTION_DAYS }, 'event tables pruned');
    return { ...result, replica: this.replica };
  }

  protected process(): Promise<PruneRun> {
    return this.prune();
  }

  protected requestIdOf(job: Job): string {
    return `prune:${job.id}`;
  }
}

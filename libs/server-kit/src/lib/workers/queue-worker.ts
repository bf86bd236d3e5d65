import { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { queuePrefix, type JobEnvelope, type JobPayloads, type QueueName, type ServiceName } from '@mate/contracts';
import type { BaseServiceEnv } from '../config/config';
import { runWithRequestId } from '../logging/logger';
import { createQueueConnection, isRedisCluster, type RedisClient } from '../redis/redis';
import { jobsFailedTotal } from '../metrics/metrics';
import { withTimeout } from '../timeout';
import type { HealthRegistry } from '../health/health';

/** At most one "queue worker error" line per worker this often (Redis down: one per reconnect). */
const ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * How long stop() lets the worker finish its jobs and close. BullMQ's close can wait forever: after
 * Redis was killed and came back, a worker's fetch on its blocking connection sometimes never
 * returns, and close waits for it (reproduced in guard-per-app.integration-spec.ts about one run in
 * five on a busy machine). Past this bound the worker's connections are cut: a replica that is
 * told to stop must stop, and its unfinished job is taken up again by another (stalled-job check).
 */
export const WORKER_CLOSE_TIMEOUT_MS = 10_000;
const QUIT_TIMEOUT_MS = 2_000;

export interface QueueWorkerSettings {
  service: ServiceName;
  queue: string;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES, when the queue lives on a Redis Cluster. */
  redisClusterNodes?: string;
  keyPrefix: string;
  concurrency: number;
  /** False when WORKERS=off (API-only replicas, one-off commands); `start()` still starts it. */
  enabled: boolean;
}

/**
 * A worker's settings from its service's env: the env's Redis and key prefix, enabled when
 * WORKERS=on. The one place that reads those variables for a worker.
 */
export function queueWorkerSettings(
  env: Pick<BaseServiceEnv, 'REDIS_URL' | 'REDIS_CLUSTER_NODES' | 'KEY_PREFIX' | 'WORKERS'>,
  worker: { service: ServiceName; queue: string; concurrency: number },
): QueueWorkerSettings {
  return {
    ...worker,
    redisUrl: env.REDIS_URL,
    redisClusterNodes: env.REDIS_CLUSTER_NODES,
    keyPrefix: env.KEY_PREFIX,
    enabled: env.WORKERS === 'on',
  };
}

/**
 * The one way a service works a BullMQ queue, for events and jobs alike: it starts with the
 * service when WORKERS=on and stops with it, owns its connection, runs each job under the request
 * id that caused it (so the handler's log lines carry it), logs failed attempts and counts them
 * in `mate_jobs_failed_total`, and, given the health registry, keeps readiness down while it
 * should run and does not (`queue:<name>`). A subclass says what a job does (`process`) and whose
 * request it belongs to (`requestIdOf`).
 */
export abstract class QueueWorker<D, R> implements OnModuleInit, OnApplicationShutdown {
  private worker: Worker<D, R> | null = null;
  private connection: RedisClient | null = null;
  /** The connections BullMQ made from `connection` (its blocking one): a stuck close cuts them too. */
  private duplicates: RedisClient[] = [];

  protected constructor(
    protected readonly settings: QueueWorkerSettings,
    protected readonly logger: Logger,
    private readonly health?: HealthRegistry,
  ) {}

  protected abstract process(job: Job<D, R>): Promise<R>;

  /** The request id a job's work runs under. */
  protected abstract requestIdOf(job: Job<D, R>): string;

  onModuleInit() {
    if (this.settings.enabled) this.start();
  }

  async onApplicationShutdown() {
    await this.stop();
  }

  get running(): boolean {
    return this.worker !== null;
  }

  start() {
    if (this.worker) return;
    const { service, queue } = this.settings;
    this.connection = createQueueConnection(this.settings);
    this.duplicates = trackDuplicates(this.connection);
    this.worker = new Worker<D, R>(queue, (job) => runWithRequestId(this.requestIdOf(job), () => this.process(job)), {
      connection: this.connection,
      // The same prefix as the queue's producers (queuePrefix: a hash tag per queue on a cluster).
      prefix: queuePrefix(this.settings.keyPrefix, queue, isRedisCluster(this.settings)),
      concurrency: this.settings.concurrency,
    });
    this.worker.on('failed', (job, err) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1) || err.name === 'UnrecoverableError';
      jobsFailedTotal().inc({ service, queue, final: String(final) });
      if (!job) return this.logger.warn({ queue, err }, 'job failed');
      runWithRequestId(this.requestIdOf(job), () =>
        this.logger.warn({ queue, jobId: job.id, name: job.name, attempts: job.attemptsMade, final, err }, 'job failed'),
      );
    });
    // Connection trouble: BullMQ reconnects by itself; say so without a line per reconnect attempt.
    let lastErrorLoggedAt = 0;
    this.worker.on('error', (err) => {
      if (Date.now() - lastErrorLoggedAt < ERROR_LOG_INTERVAL_MS) return;
      lastErrorLoggedAt = Date.now();
      this.logger.warn({ queue, err }, 'queue worker error');
    });
    this.health?.registerWorker(queue, () => this.worker);
  }

  async stop() {
    const worker = this.worker;
    const connection = this.connection;
    const duplicates = this.duplicates;
    this.worker = null;
    this.connection = null;
    this.duplicates = [];
    this.health?.unregisterWorker(this.settings.queue);
    if (worker) {
      const closed = worker.close().catch(() => undefined);
      try {
        await withTimeout(closed, WORKER_CLOSE_TIMEOUT_MS);
      } catch {
        this.logger.warn({ queue: this.settings.queue }, 'queue worker did not close in time: its connections are cut');
        // ioredis' disconnect() ends a connection at once, reconnecting or not; BullMQ's own
        // disconnect waits for a client that may never be ready.
        for (const c of [connection, ...duplicates]) c?.disconnect();
        await withTimeout(closed, QUIT_TIMEOUT_MS).catch(() => undefined);
        return;
      }
    }
    if (connection) await withTimeout(connection.quit(), QUIT_TIMEOUT_MS).catch(() => connection.disconnect());
  }
}

/** Records every connection made from `connection` by duplicate() (BullMQ's blocking connection is one). */
function trackDuplicates(connection: RedisClient): RedisClient[] {
  const made: RedisClient[] = [];
  // A server's duplicate(options) and a cluster's duplicate(seeds, options): passed on as given.
  const duplicate = connection.duplicate.bind(connection) as (...args: unknown[]) => RedisClient;
  connection.duplicate = ((...args: unknown[]) => {
    const copy = duplicate(...args);
    made.push(copy);
    return copy;
  }) as RedisClient['duplicate'];
  return made;
}

/** Job data as the outbox writes it (an envelope), or as written before envelopes existed. */
export type JobData<Q extends QueueName> = JobEnvelope<Q> | JobPayloads[Q];

function isEnvelope<Q extends QueueName>(data: JobData<Q>, queue: Q): data is JobEnvelope<Q> {
  return typeof data === 'object' && data !== null && (data as JobEnvelope<Q>).queue === queue && 'data' in data;
}

/**
 * A worker of one job queue (ARCHITECTURE §2.2). The job's id is the outbox row's id, the same
 * however often the job is re-added: use it as the delivery key.
 */
export abstract class JobWorker<Q extends QueueName, R> extends QueueWorker<JobData<Q>, R> {
  protected abstract handle(data: JobPayloads[Q], job: Job<JobData<Q>, R>): Promise<R>;

  protected process(job: Job<JobData<Q>, R>): Promise<R> {
    const data = isEnvelope(job.data, this.settings.queue as Q) ? job.data.data : (job.data as JobPayloads[Q]);
    return this.handle(data, job);
  }

  protected requestIdOf(job: Job<JobData<Q>, R>): string {
    const envelope = isEnvelope(job.data, this.settings.queue as Q) ? job.data : null;
    return envelope?.requestId ?? `job:${job.id}`;
  }
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import {
  EVENT_CATALOGUE,
  eventQueueName,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
  type JobPayloads,
  type QueueName,
  type ServiceName,
} from '@mate/contracts';
import { LOGGER } from '../logging/logger';
import { OutboxEntry } from './outbox.entities';

export const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

export interface OutboxOptions {
  service: ServiceName;
  keyPrefix: string;
  /** How often the relay looks for unpublished rows; it is also nudged after each write. */
  pollIntervalMs: number;
  /** Off in one-off commands (migrate, CLI) and in tests that drive `relayOnce()` themselves. */
  relayEnabled: boolean;
}

export const EVENT_JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential' as const, delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10000 },
  removeOnFail: false,
};

/**
 * Writes events and jobs into the outbox inside the caller's transaction, and relays them to
 * BullMQ: events to `events.<consumer>` of every consumer in the catalogue, jobs to their queue.
 * Delivery is at least once; the job id is the row id so a relayed twice row is one job.
 */
@Injectable()
export class OutboxService implements OnModuleInit, OnApplicationShutdown {
  private readonly queues = new Map<string, Queue>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(OUTBOX_OPTIONS) private readonly options: OutboxOptions,
    @Inject(QUEUE_CONNECTION) private readonly connection: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    if (this.options.relayEnabled) this.schedule(this.options.pollIntervalMs);
  }

  async onApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  async publish<N extends EventName>(manager: EntityManager, name: N, payload: EventPayloads[N]): Promise<string> {
    const id = randomUUID();
    const envelope: EventEnvelope<N> = {
      id,
      name,
      version: EVENT_CATALOGUE[name].version,
      producer: this.options.service,
      occurredAt: new Date().toISOString(),
      payload,
    };
    await manager.insert(OutboxEntry, { id, kind: 'event', name, body: envelope as unknown as object });
    this.nudgeAfterCommit(manager);
    return id;
  }

  async enqueueJob<Q extends QueueName>(manager: EntityManager, queue: Q, data: JobPayloads[Q]): Promise<string> {
    const id = randomUUID();
    await manager.insert(OutboxEntry, { id, kind: 'job', name: queue, body: data as unknown as object });
    this.nudgeAfterCommit(manager);
    return id;
  }

  /** Publishes what is waiting; returns how many rows it handed on. */
  relayOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.relayBatch().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.options.keyPrefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: OutboxEntry[] = await manager
        .createQueryBuilder(OutboxEntry, 'o')
        .where('o.published_at IS NULL')
        .orderBy('o.created_at', 'ASC')
        .limit(100)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length === 0) return 0;
      for (const row of rows) {
        const targets =
          row.kind === 'event' ? EVENT_CATALOGUE[row.name as EventName].consumers.map(eventQueueName) : [row.name];
        for (const target of targets) {
          await this.queue(target).add(row.name, row.body, { ...EVENT_JOB_OPTIONS, jobId: row.id });
        }
      }
      await manager
        .createQueryBuilder()
        .update(OutboxEntry)
        .set({ publishedAt: () => 'now()' })
        .whereInIds(rows.map((r) => r.id))
        .execute();
      return rows.length;
    });
  }

  private nudgeAfterCommit(manager: EntityManager) {
    if (!this.options.relayEnabled) return;
    // The row is visible only after the caller's transaction commits; a short delay covers that,
    // and the poll loop covers anything the nudge misses.
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) setTimeout(() => this.tick(), 20).unref();
    else setImmediate(() => this.tick());
  }

  private tick() {
    if (this.stopped) return;
    this.relayOnce()
      .then((n) => {
        if (n === 100) setImmediate(() => this.tick());
      })
      .catch((e) => this.logger.warn({ err: e }, 'outbox relay failed; will retry'));
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.tick();
      this.schedule(ms);
    }, ms);
    this.timer.unref();
  }
}

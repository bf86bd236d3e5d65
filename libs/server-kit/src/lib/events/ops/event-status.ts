import type { Queue } from 'bullmq';
import { EVENT_CATALOGUE, type EventName, type ServiceName } from '@mate/contracts';
import type { SqlQuery } from './sql';

/**
 * Every consumer the catalogue names, in a stable order: those it routes events to today and
 * those that will consume them once deployed (`later`, filled by replay or republish then).
 */
export function eventConsumers(): ServiceName[] {
  const all = (Object.keys(EVENT_CATALOGUE) as EventName[]).flatMap((name) => [
    ...EVENT_CATALOGUE[name].consumers,
    ...EVENT_CATALOGUE[name].later,
  ]);
  return [...new Set(all)].sort();
}

/**
 * caught-up: nothing waiting, running or delayed; behind: work to do and a worker on it;
 * failed: exhausted jobs that only a redrive re-runs; not-running: work waits and no worker is
 * connected; not-deployed: the catalogue names a consumer this deployment does not run yet, whose
 * queue keeps every event until it starts.
 */
export type ConsumerState = 'caught-up' | 'behind' | 'failed' | 'not-running' | 'not-deployed';

export interface ConsumerStatus {
  consumer: ServiceName;
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  workers: number;
  /** When the oldest waiting job was added (ISO), or null when none waits. */
  oldestWaitingAt: string | null;
  /** Age of the oldest waiting job in ms: how far behind the consumer is. */
  lagMs: number;
  state: ConsumerState;
}

/** The job counts and lag of one consumer's queue `events.<consumer>`. */
export async function consumerStatus(
  consumer: ServiceName,
  queue: Queue,
  { deployed = true, now = Date.now() }: { deployed?: boolean; now?: number } = {},
): Promise<ConsumerStatus> {
  const [counts, [oldest], workers] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
    // asc: the oldest waiting job first.
    queue.getJobs(['waiting'], 0, 0, true),
    queue.getWorkersCount(),
  ]);
  const waiting = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
  const active = counts.active ?? 0;
  const delayed = counts.delayed ?? 0;
  const failed = counts.failed ?? 0;
  const pending = waiting + active + delayed;
  const state: ConsumerState = !deployed
    ? 'not-deployed'
    : failed > 0
      ? 'failed'
      : pending === 0
        ? 'caught-up'
        : workers === 0
          ? 'not-running'
          : 'behind';
  return {
    consumer,
    queue: queue.name,
    waiting,
    active,
    delayed,
    failed,
    workers,
    oldestWaitingAt: oldest ? new Date(oldest.timestamp).toISOString() : null,
    lagMs: oldest ? Math.max(0, now - oldest.timestamp) : 0,
    state,
  };
}

export interface OutboxStatus {
  service: ServiceName;
  /** Rows (events and jobs) the relay has not handed to BullMQ yet. */
  unpublished: number;
  oldestUnpublishedAt: string | null;
  /** Age of the oldest unpublished row in ms: how far behind the relay is. */
  lagMs: number;
}

/** The relay's backlog in one producer's database. */
export async function outboxStatus(service: ServiceName, sql: SqlQuery, now = Date.now()): Promise<OutboxStatus> {
  const [row] = await sql<{ unpublished: number; oldest: Date | string | null }>(
    'SELECT count(*)::int AS unpublished, min(created_at) AS oldest FROM outbox WHERE published_at IS NULL',
  );
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return {
    service,
    unpublished: row?.unpublished ?? 0,
    oldestUnpublishedAt: oldest?.toISOString() ?? null,
    lagMs: oldest ? Math.max(0, now - oldest.getTime()) : 0,
  };
}

export interface EventStatusReport {
  at: string;
  consumers: ConsumerStatus[];
  outboxes: OutboxStatus[];
  /** Every outbox relayed and every deployed consumer without pending or failed work. */
  caughtUp: boolean;
}

export function summarise(consumers: ConsumerStatus[], outboxes: OutboxStatus[], now = Date.now()): EventStatusReport {
  return {
    at: new Date(now).toISOString(),
    consumers,
    outboxes,
    caughtUp:
      outboxes.every((o) => o.unpublished === 0) &&
      consumers.every((c) => c.state === 'caught-up' || c.state === 'not-deployed'),
  };
}

import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import { eventsConsumedBy, type ServiceName } from '@mate/contracts';
import { EVENT_JOB_OPTIONS } from '../outbox.service';
import type { SqlQuery } from './sql';

const REPLAY_BATCH = 500;

export interface ReplayOptions {
  /** The consumer to fill; only events the catalogue routes to it are sent. */
  consumer: ServiceName;
  /** Its queue `events.<consumer>`. */
  queue: Queue;
  /** The producer databases' outboxes, read one after the other. */
  outboxes: SqlQuery[];
  /** Only rows created at or after this instant (all the outbox still holds when omitted). */
  since?: Date;
  /** Distinguishes this run's job ids; random when omitted. */
  runId?: string;
}

interface OutboxEventRow {
  id: string;
  name: string;
  body: unknown;
  /** created_at as PostgreSQL prints it: keeps the microseconds a JS Date would lose. */
  created: string;
}

/**
 * Re-sends every stored event the catalogue routes to `consumer`, published or not, in each
 * outbox's `created_at` order. A replayed job's id is `replay-<run>-<event id>`, so it never
 * collides with the original delivery (which BullMQ may still hold as completed) and the
 * envelope keeps the event's own id: the consumer's processed_event check and aggregate versions
 * make an event it already had a no-op. Answers how many events were sent.
 */
export async function replayOutbox({ consumer, queue, outboxes, since, runId }: ReplayOptions): Promise<number> {
  const names = eventsConsumedBy(consumer);
  if (names.length === 0) return 0;
  const run = runId ?? `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  let sent = 0;
  for (const sql of outboxes) {
    let after: { created: string; id: string } | null = null;
    for (;;) {
      const rows: OutboxEventRow[] = await sql<OutboxEventRow>(
        `SELECT id, name, body, created_at::text AS created FROM outbox
          WHERE kind = 'event' AND name = ANY($1) AND created_at >= $2
            AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
          ORDER BY created_at, id LIMIT $5`,
        [names, (since ?? new Date(0)).toISOString(), after?.created ?? null, after?.id ?? null, REPLAY_BATCH],
      );
      if (rows.length === 0) break;
      await queue.addBulk(
        rows.map((row) => ({
          name: row.name,
          data: row.body,
          opts: { ...EVENT_JOB_OPTIONS, jobId: `replay-${run}-${row.id}` },
        })),
      );
      sent += rows.length;
      const last = rows[rows.length - 1];
      after = { created: last.created, id: last.id };
    }
  }
  return sent;
}

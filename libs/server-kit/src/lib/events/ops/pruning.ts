import type { SqlQuery } from './sql';

export const DAY_MS = 24 * 3600 * 1000;
/** Rows deleted per statement, so a large backlog never holds long locks. */
const PRUNE_BATCH = 5000;

export interface PruneResult {
  outbox: number;
  processedEvents: number;
}

/**
 * Deletes published outbox rows and processed_event rows older than the retention. Unpublished
 * rows stay whatever their age: the relay still owes them to their queues. Once a processed_event
 * row is gone its event could apply again, which is why the retention is much longer than any
 * redelivery (BullMQ keeps completed jobs for a day) and equals the outbox's, the replay source.
 */
export async function pruneEventTables(sql: SqlQuery, retentionMs: number): Promise<PruneResult> {
  const cutoff = new Date(Date.now() - retentionMs).toISOString();
  const outbox = await deleteInBatches(
    sql,
    `WITH gone AS (
       DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox WHERE published_at IS NOT NULL AND created_at < $1 LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    cutoff,
  );
  const processedEvents = await deleteInBatches(
    sql,
    `WITH gone AS (
       DELETE FROM processed_event WHERE event_id IN (
         SELECT event_id FROM processed_event WHERE processed_at < $1 LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    cutoff,
  );
  return { outbox, processedEvents };
}

async function deleteInBatches(sql: SqlQuery, statement: string, cutoff: string): Promise<number> {
  let total = 0;
  for (;;) {
    // A CTE rather than DELETE … RETURNING: TypeORM's query() answers [rows, count] for a DELETE.
    const [{ n: deleted }] = await sql<{ n: number }>(statement, [cutoff, PRUNE_BATCH]);
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}

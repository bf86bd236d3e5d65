import type { Queue } from 'bullmq';

/** How many failed jobs BullMQ moves back to waiting per round trip. */
const REDRIVE_BATCH = 1000;

/**
 * Re-runs a queue's failed (exhausted) jobs: each goes back to waiting with its id and data, so
 * the consumer's idempotency still holds. Answers how many were failed when it started.
 */
export async function redriveFailed(queue: Queue): Promise<number> {
  const failed = await queue.getFailedCount();
  if (failed > 0) await queue.retryJobs({ state: 'failed', count: REDRIVE_BATCH });
  return failed;
}

import type { Queue } from 'bullmq';
import type { ServiceName } from '@mate/contracts';
import { addGaugeSource, outboxOldestUnpublishedAge, outboxUnpublished, queueJobs } from '../../metrics/metrics';
import { consumerStatus, outboxStatus } from './event-status';
import type { SqlQuery } from './sql';

/** What one service reports: its outbox and, when it consumes events, its queue. */
export interface EventMetricsSource {
  service: ServiceName;
  outbox: SqlQuery;
  consumerQueue?: Queue;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Reports the figures of `npm run events -- status` for one service on `/metrics`, read at
 * scrape time: its consumer queue's jobs by state, and its outbox backlog and the age of its
 * oldest unpublished row. Answers the function that stops reporting them (call it on shutdown).
 */
export function registerEventMetrics({ service, outbox, consumerQueue }: EventMetricsSource): () => void {
  const stops = [
    addGaugeSource(outboxUnpublished(), async (g) => {
      g.set({ service }, (await outboxStatus(service, outbox)).unpublished);
    }),
    addGaugeSource(outboxOldestUnpublishedAge(), async (g) => {
      g.set({ service }, (await outboxStatus(service, outbox)).lagMs / 1000);
    }),
  ];
  if (consumerQueue) {
    stops.push(
      addGaugeSource(queueJobs(), async (g) => {
        const status = await consumerStatus(service, consumerQueue);
        for (const state of QUEUE_STATES) g.set({ service, queue: status.queue, state }, status[state]);
      }),
    );
  }
  return () => stops.forEach((stop) => stop());
}

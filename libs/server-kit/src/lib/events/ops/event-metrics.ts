import type { Queue } from 'bullmq';
import type { ServiceName } from '@mate/contracts';
import { addGaugeSource, outboxOldestUnpublishedAge, outboxUnpublished, queueJobs } from '../../metrics/metrics';
import { consumerStatus, outboxStatus } from './event-status';
import type { SqlQuery } from './sql';

/** What one service reports: its outbox and the queues its workers take (events and jobs). */
export interface EventMetricsSource {
  service: ServiceName;
  outbox: SqlQuery;
  queues?: Queue[];
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Reports the figures of `npm run events -- status` for one service on `/metrics`, read at
 * scrape time: the jobs of its queues by state (`events.<service>` and its job queues), and its outbox backlog and the age of its
 * oldest unpublished row. Answers the function that stops reporting them (call it on shutdown).
 */
export function registerEventMetrics({ service, outbox, queues = [] }: EventMetricsSource): () => void {
  // Both outbox gauges are collected in the same scrape: one query serves the two.
  let inFlight: ReturnType<typeof outboxStatus> | null = null;
  const status = () =>
    (inFlight ??= outboxStatus(service, outbox).finally(() => {
      inFlight = null;
    }));
  const stops = [
    addGaugeSource(outboxUnpublished(), async (g) => {
      g.set({ service }, (await status()).unpublished);
    }),
    addGaugeSource(outboxOldestUnpublishedAge(), async (g) => {
      g.set({ service }, (await status()).lagMs / 1000);
    }),
  ];
  for (const queue of queues) {
    stops.push(
      addGaugeSource(queueJobs(), async (g) => {
        const status = await consumerStatus(service, queue);
        for (const state of QUEUE_STATES) g.set({ service, queue: status.queue, state }, status[state]);
      }),
    );
  }
  return () => stops.forEach((stop) => stop());
}

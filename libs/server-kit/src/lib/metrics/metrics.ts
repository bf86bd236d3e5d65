import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  register,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { withTimeout } from '../timeout';

/**
 * Every metric of Mate, by name. All of them live on prom-client's default registry; tests run
 * several services in one process, so each is created once per process (the first caller wins)
 * and carries a `service` label where two services could report the same series.
 */
export const MetricName = {
  /** HTTP latency by method, route template (never a raw path with ids) and status. */
  httpRequestDuration: 'mate_http_request_duration_seconds',
  /** Time from an event's outbox row (occurredAt) to the moment its consumer handled it. */
  eventLag: 'mate_event_lag_seconds',
  /** Jobs in a BullMQ queue by state (waiting, active, delayed, failed), sampled on scrape. */
  queueJobs: 'mate_queue_jobs',
  /** Jobs (events included) whose attempt failed; `final` is "true" when no retry is left. */
  jobsFailed: 'mate_jobs_failed_total',
  /** Outbox rows not yet published, and the age of the oldest one, sampled on scrape. */
  outboxUnpublished: 'mate_outbox_unpublished_events',
  outboxOldestUnpublishedAge: 'mate_outbox_oldest_unpublished_seconds',
  /** Open socket.io connections on this gateway process. */
  socketConnections: 'mate_socket_connections',
  /**
   * The V8 heap in use right after the latest full (mark-compact) collection: what the process
   * really holds. `nodejs_heap_size_used_bytes` also counts garbage not collected yet, which
   * swings with the allocation rate; a leak shows here as a floor that keeps rising.
   */
  heapLiveAfterGc: 'mate_nodejs_heap_live_after_gc_bytes',
} as const;

/** Latency buckets for HTTP calls and event lag: 5 ms to 10 s (the bench target is p99 < 200 ms). */
export const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2.5, 5, 10];

/** A counter registered once per process (a second call with the same name returns the first). */
export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return (register.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter(config);
}

export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  return (register.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram(config);
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  return (register.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge(config);
}

/** Process metrics (CPU, memory, event loop lag, handles), once per process. */
export function collectProcessMetrics(): void {
  if (!register.getSingleMetric('process_cpu_user_seconds_total')) collectDefaultMetrics();
  if (!register.getSingleMetric(MetricName.heapLiveAfterGc)) observeHeapLiveAfterGc();
}

/**
 * Sets `mate_nodejs_heap_live_after_gc_bytes` after each full collection, from the `gc` entries
 * prom-client's default metrics observe as well (so no cost the process did not already pay).
 * The entry is delivered just after the collection: what was allocated in between is counted too,
 * a few hundred KiB against tens of MiB. It reads 0 until the first full collection. (External
 * memory is left out: a dead Buffer's memory is freed after the collection, so a read at that
 * moment still counts it.)
 */
/** A `gc` performance entry of a full (mark-compact) collection. */
export function isFullCollection(entry: PerformanceEntry): boolean {
  return (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

function observeHeapLiveAfterGc(): void {
  const live = gauge({
    name: MetricName.heapLiveAfterGc,
    help: 'V8 heap in use right after the latest full (mark-compact) garbage collection',
  });
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some(isFullCollection)) live.set(getHeapStatistics().used_heap_size);
  });
  observer.observe({ entryTypes: ['gc'] });
}

export type HttpMetricLabels = 'service' | 'method' | 'route' | 'status';

export function httpRequestDuration(): Histogram<HttpMetricLabels> {
  return histogram({
    name: MetricName.httpRequestDuration,
    help: 'HTTP request latency by route template',
    labelNames: ['service', 'method', 'route', 'status'],
    buckets: LATENCY_BUCKETS_SECONDS,
  });
}

/** Observe `(handledAt - occurredAt)` in seconds once an event has been applied (or skipped as old). */
export function eventLagSeconds(): Histogram<'service' | 'event'> {
  return histogram({
    name: MetricName.eventLag,
    help: 'Seconds from an event being written to the outbox to its consumer handling it',
    labelNames: ['service', 'event'],
    buckets: LATENCY_BUCKETS_SECONDS,
  });
}

/** Increment on every failed attempt; `final: 'true'` when the job is exhausted (needs a redrive). */
export function jobsFailedTotal(): Counter<'service' | 'queue' | 'final'> {
  return counter({
    name: MetricName.jobsFailed,
    help: 'Failed job attempts by queue; final="true" when no retry is left',
    labelNames: ['service', 'queue', 'final'],
  });
}

export function socketConnections(): Gauge<'service'> {
  return gauge({ name: MetricName.socketConnections, help: 'Open socket.io connections', labelNames: ['service'] });
}

/**
 * A gauge whose values are read on each scrape from the sources that registered for it (queue
 * depth, outbox backlog). Several services in one process each add their own source; a source
 * that fails or takes longer than SOURCE_TIMEOUT_MS is left out of that scrape rather than
 * failing or stalling `/metrics` (a BullMQ call waits forever while Redis is down).
 */
export type GaugeSource<L extends string> = (gauge: Gauge<L>) => Promise<void>;

export const SOURCE_TIMEOUT_MS = 1000;

const gaugeSources = new Map<string, Set<GaugeSource<string>>>();

function sampledGauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'collect'>): Gauge<L> {
  const existing = register.getSingleMetric(config.name) as Gauge<L> | undefined;
  if (existing) return existing;
  const sources = new Set<GaugeSource<string>>();
  gaugeSources.set(config.name, sources);
  return new Gauge<L>({
    ...config,
    async collect() {
      this.reset();
      await Promise.all(
        [...sources].map((source) => withTimeout(source(this as Gauge<string>), SOURCE_TIMEOUT_MS).catch(() => undefined)),
      );
    },
  });
}

export function queueJobs(): Gauge<'service' | 'queue' | 'state'> {
  return sampledGauge({
    name: MetricName.queueJobs,
    help: 'Jobs in a queue by state, sampled on scrape',
    labelNames: ['service', 'queue', 'state'],
  });
}

export function outboxUnpublished(): Gauge<'service'> {
  return sampledGauge({ name: MetricName.outboxUnpublished, help: 'Outbox rows not yet published', labelNames: ['service'] });
}

export function outboxOldestUnpublishedAge(): Gauge<'service'> {
  return sampledGauge({
    name: MetricName.outboxOldestUnpublishedAge,
    help: 'Age in seconds of the oldest unpublished outbox row (0 when none)',
    labelNames: ['service'],
  });
}

/**
 * Adds a source to a sampled gauge (`queueJobs()`, `outboxUnpublished()`, ...). Returns the
 * function that removes it again: call it on shutdown so a closed service stops reporting.
 *
 *     const stop = addGaugeSource(queueJobs(), async (g) => {
 *       const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
 *       for (const [state, n] of Object.entries(counts)) g.set({ service, queue: queue.name, state }, n);
 *     });
 */
export function addGaugeSource<L extends string>(target: Gauge<L>, source: GaugeSource<L>): () => void {
  const name = (target as unknown as { name: string }).name;
  const sources = gaugeSources.get(name);
  if (!sources) throw new Error(`${name} is not a sampled gauge`);
  sources.add(source as GaugeSource<string>);
  return () => sources.delete(source as GaugeSource<string>);
}

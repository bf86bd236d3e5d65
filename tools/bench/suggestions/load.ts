// The load loops of `npm run bench:suggestions`: a closed loop of N concurrent clients on keep-alive
// connections (node:http, cheaper per request than fetch on a 2-CPU machine that also runs the
// services), each request timed on its own; and the percentiles of what they measured.
import http from 'node:http';

/** One timed answer. */
export interface Sample {
  status: number;
  ms: number;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

/** One request on the shared keep-alive agent; the whole body is read before the clock stops. */
export function request(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { ...headers, ...(method === 'POST' ? { 'content-length': '0' } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Phase {
  label: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
}

/** The value below which `q` (0–1) of the sorted values lie (nearest rank). */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Runs `next(i)` (the i-th request) from `concurrency` clients back to back for `seconds`, or
 * until `next` answers null (no more work). Answers the phase's latency percentiles and rate.
 */
export async function closedLoop(
  label: string,
  { seconds, concurrency }: { seconds: number; concurrency: number },
  next: (i: number) => Promise<Sample> | null,
): Promise<Phase> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let issued = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < deadline) {
      const pending = next(issued++);
      if (!pending) return;
      const sample = await pending.catch(() => ({ status: 0, ms: 0, body: '' }));
      statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
      if (sample.status > 0) latencies.push(sample.ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    requests: latencies.length,
    perSecond: Math.round(latencies.length / elapsed),
    p50: round(percentile(latencies, 0.5)),
    p95: round(percentile(latencies, 0.95)),
    p99: round(percentile(latencies, 0.99)),
    statuses,
  };
}

import { performance, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { register } from 'prom-client';
import { collectProcessMetrics, isFullCollection, MetricName } from './metrics';

// A full collection on demand, without starting Jest with --expose-gc.
setFlagsFromString('--expose-gc');
const fullGc = runInNewContext('gc') as () => void;

async function liveAfterGc(): Promise<number> {
  const metric = await register.getSingleMetric(MetricName.heapLiveAfterGc)?.get();
  return metric?.values[0]?.value ?? 0;
}

/**
 * The gauge's value after a full collection made now. The collection's gc entry reaches every
 * observer in one delivery; this waits for that very entry (not one of an earlier collection the
 * allocations set off, still on its way) and reads the gauge once the delivery is over.
 */
async function afterFullGc(): Promise<{ gauge: number; truth: number }> {
  // A turn first: what the caller just let go of can still be referenced until its code yields.
  await new Promise((r) => setImmediate(r));
  const calledAt = performance.now();
  const delivered = new Promise<void>((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const ours = list.getEntries().some((e) => e.startTime >= calledAt && isFullCollection(e));
      if (!ours) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ entryTypes: ['gc'] });
  });
  fullGc();
  // What the heap holds at the end of that collection, read at once.
  const truth = getHeapStatistics().used_heap_size;
  await delivered;
  await new Promise((r) => setImmediate(r));
  return { gauge: await liveAfterGc(), truth };
}

const MiB = 1024 * 1024;

/** Allocates `mib` MiB and lets go of it: garbage. */
function makeGarbage(mib: number): number {
  return Array.from({ length: mib }, () => new Array<number>(MiB / 8).fill(2.5)).length;
}

describe('the heap held after a full collection (mate_nodejs_heap_live_after_gc_bytes)', () => {
  beforeAll(() => collectProcessMetrics());

  // The Jest worker runs other suites before this one: what they leave behind is freed when it
  // is, so the assertions compare readings within this test, never against a fixed baseline.
  it('reads the heap left right after a full collection: what the process holds, not its garbage', async () => {
    const baseline = await afterFullGc();
    expect(baseline.gauge).toBeGreaterThan(0);
    // The value of that very collection (what was allocated since is a few KiB).
    expect(Math.abs(baseline.gauge - baseline.truth)).toBeLessThan(MiB);

    // 40 MiB the process keeps, and 40 MiB of garbage made alongside.
    let held: number[][] | null = Array.from({ length: 40 }, () => new Array<number>(MiB / 8).fill(1.5));
    expect(makeGarbage(40)).toBe(40);
    const holding = await afterFullGc();
    expect(Math.abs(holding.gauge - holding.truth)).toBeLessThan(MiB);
    // The garbage is not in it (with it, 80 MiB more).
    expect(holding.gauge - baseline.gauge).toBeLessThan(50 * MiB);

    expect(held).toHaveLength(40);
    held = null;
    const released = await afterFullGc();
    // What it held is: letting go of it lowers the reading by about 40 MiB.
    expect(holding.gauge - released.gauge).toBeGreaterThan(35 * MiB);
  });
});

import { holdsSteady, median, medianRss, memoryFigures, parseNodeMemory, type MemorySample, type NodeMemory, type ProcessMemory } from './soak';

describe('the soak’s memory reading', () => {
  it('takes the median, so one read at a garbage collection’s peak or trough does not count as growth', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('compares each process’s first and last minute of reads, leaving out reads while it was gone', () => {
    const samples: MemorySample[] = [
      { at: 0, rss: [100, 50] },
      { at: 30_000, rss: [180, null] },
      { at: 60_000, rss: [110, 52] },
      { at: 540_000, rss: [105, 60] },
      { at: 570_000, rss: [240, 61] },
      { at: 600_000, rss: [108, 62] },
    ];
    expect(medianRss(samples, 2, 0, 60_000)).toEqual([110, 51]);
    expect(medianRss(samples, 2, 540_000, Infinity)).toEqual([108, 61]);
  });

  it('reads a process’s heap, its heap after a full collection and its external memory from /metrics', () => {
    const text = [
      '# HELP nodejs_heap_size_total_bytes Process heap size from Node.js in bytes.',
      'nodejs_heap_size_total_bytes 90000000',
      'nodejs_heap_size_used_bytes 70000000',
      'nodejs_external_memory_bytes 3000000',
      'nodejs_heap_space_size_total_bytes{space="new"} 33554432',
      'nodejs_heap_space_size_total_bytes{space="old"} 50000000',
      'nodejs_heap_space_size_used_bytes{space="new"} 1000',
      'mate_nodejs_heap_live_after_gc_bytes 38000000',
    ].join('\n');
    expect(parseNodeMemory(text)).toEqual({
      heapUsed: 70_000_000,
      liveAfterGc: 38_000_000,
      heapCommitted: 90_000_000,
      newSpace: 33_554_432,
      oldSpace: 50_000_000,
      external: 3_000_000,
    });
    // Before the first full collection the gauge reads 0: no reading yet, not an empty heap.
    expect(parseNodeMemory(text.replace('38000000', '0'))?.liveAfterGc).toBeNull();
    expect(parseNodeMemory('up 1')).toBeNull();
  });

  const MiB = 1024 * 1024;
  const node = (heapCommitted: number, liveAfterGc: number | null): NodeMemory => ({
    heapUsed: heapCommitted * 0.7,
    liveAfterGc,
    heapCommitted,
    newSpace: 32 * MiB,
    oldSpace: heapCommitted - 32 * MiB,
    external: 4 * MiB,
  });

  it('takes the memory outside the V8 heap read by read, as the RSS less the heap committed at that read', () => {
    // The heap swings between collections; what is outside it does not.
    const samples: MemorySample[] = [
      { at: 0, rss: [180 * MiB], node: [node(112 * MiB, 40 * MiB)] },
      { at: 5_000, rss: [250 * MiB], node: [node(182 * MiB, 40 * MiB)] },
      { at: 10_000, rss: [200 * MiB], node: [node(132 * MiB, 41 * MiB)] },
      { at: 15_000, rss: [190 * MiB], node: [null] },
    ];
    const [figures] = memoryFigures(samples, 1, 0, 60_000);
    expect(figures.outsideHeap).toBe(68 * MiB);
    expect(figures.liveAfterGc).toBe(40 * MiB);
    expect(figures.heapCommitted).toBe(132 * MiB);
  });

  it('judges what a process holds — its heap after a full collection and its memory outside the heap — not the garbage its RSS carries', () => {
    const steady = memoryFigures([{ at: 0, rss: [180 * MiB], node: [node(112 * MiB, 40 * MiB)] }], 1, 0, 1)[0];
    const process = (end: NodeMemory, endRss: number): ProcessMemory => ({
      name: 'matching-service',
      startBytes: 180 * MiB,
      endBytes: endRss,
      growthPercent: null,
      node: { start: steady, end: memoryFigures([{ at: 0, rss: [endRss], node: [end] }], 1, 0, 1)[0] },
    });
    // RSS up 40 % with the heap's garbage (a collector sizing itself to the load): steady.
    expect(holdsSteady(process(node(184 * MiB, 41 * MiB), 252 * MiB))).toBe(true);
    // 12 % more heap kept after collections: a leak.
    expect(holdsSteady(process(node(112 * MiB, 44.8 * MiB), 180 * MiB))).toBe(false);
    // 12 % more memory outside the heap (native memory, Buffers): a leak too.
    expect(holdsSteady(process(node(112 * MiB, 40 * MiB), 188.2 * MiB))).toBe(false);
    // No reading after a full collection: nothing to judge by, so not steady.
    expect(holdsSteady(process(node(112 * MiB, null), 180 * MiB))).toBe(false);
    expect(holdsSteady({ ...process(node(112 * MiB, 40 * MiB), 180 * MiB), node: null })).toBe(false);
  });
});

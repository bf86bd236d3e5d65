import { median, medianRss, type MemorySample } from './soak';

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
});

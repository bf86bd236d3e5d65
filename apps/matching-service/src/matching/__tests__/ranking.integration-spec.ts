import { startMatchingTestBed, type MatchingTestBed } from '../../__tests__/matching-test-bed';

const INTERESTS = ['Travel', 'Music', 'Art', 'Hiking', 'Cooking', 'Gaming', 'Yoga', 'Reading'];

describe('ranking of suggestions with a fixed seed (real PostgreSQL)', () => {
  let bed: MatchingTestBed;

  beforeAll(async () => {
    // The test bed fixes the pool's start, the one source of chance in a suggestions request.
    bed = await startMatchingTestBed('matching_ranking');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('gives the same order for the same data, best first', async () => {
    const place = bed.place();
    const viewer = await bed.member({ ...place, interests: ['Travel', 'Music', 'Art'] });
    for (let i = 0; i < 12; i++) {
      await bed.member({ ...place, age: 24 + i, interests: INTERESTS.slice(i % 5, (i % 5) + 1 + (i % 3)) });
    }
    const first = await bed.suggestions(viewer, 12);
    // Serving records impressions (exposure feeds the ranking): take them back to the same data.
    await bed.dataSource.query('DELETE FROM impression');
    const second = await bed.suggestions(viewer, 12);
    expect(first).toHaveLength(12);
    expect(second.map((s) => [s.user.id, s.score])).toEqual(first.map((s) => [s.user.id, s.score]));
    const scores = first.map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});

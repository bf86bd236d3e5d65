import { fitModel } from '../fit';
import { ScoringModel } from '../model';
import type { ScoringProfile } from '../profile';
import { rankPool } from '../rank';
import { SmallWorld } from './small-world';

const PAGE = 10;

/**
 * A small fixed-seed simulation (the bench, tools/bench/matching-quality, runs the large one):
 * members swipe at random, the model is fitted on those swipes, then each member's next page is
 * chosen by the model and by the shared-interest heuristic. A page is worth its expected mutual
 * likes under the hidden tastes (a pair where the other already liked the member needs only the
 * member's like).
 */
describe('the fitted model against the shared-interest heuristic (small fixed-seed simulation)', () => {
  it('finds at least twice the heuristic’s expected mutual likes per suggestion', () => {
    const world = new SmallWorld('simulation', 300);
    const history = world.swipes('simulation-history', 40);
    const { params, stats } = fitModel(history, world.profiles(), { version: 'sim' });
    const model = new ScoringModel(params);
    const swiped = new Set(history.map((s) => `${s.swiperId}>${s.targetId}`));
    const liked = new Set(history.filter((s) => s.liked).map((s) => `${s.swiperId}>${s.targetId}`));

    const worth = (a: ScoringProfile, page: ScoringProfile[]) =>
      page.reduce(
        (sum, b) =>
          sum +
          world.likeProbability(a, b) *
            (liked.has(`${b.userId}>${a.userId}`) ? 1 : world.likeProbability(b, a)),
        0,
      );
    let byModel = 0;
    let byHeuristic = 0;
    for (const a of world.members) {
      const pool = world.members.filter((b) => b !== a && !swiped.has(`${a.userId}>${b.userId}`));
      const likedViewer = new Set(
        pool.filter((b) => liked.has(`${b.userId}>${a.userId}`)).map((b) => b.userId),
      );
      const ranked = rankPool(model, a, pool, { stats, likedViewer, recentImpressions: new Map() });
      const byId = new Map(pool.map((b) => [b.userId, b]));
      byModel += worth(
        a,
        ranked.slice(0, PAGE).map((r) => byId.get(r.userId) as ScoringProfile),
      );
      const shared = (b: ScoringProfile) => b.interests.filter((i) => a.interests.includes(i)).length;
      byHeuristic += worth(
        a,
        [...pool].sort((x, y) => shared(y) - shared(x) || (x.userId < y.userId ? -1 : 1)).slice(0, PAGE),
      );
    }
    expect(byModel).toBeGreaterThan(2 * byHeuristic);
  });
});

import { gini } from '../metrics';
import { LIKED_YOU_PROBABILITY, ScoringModel } from '../model';
import { NEWCOMER } from '../profile';
import { rankPool, reciprocalScore, type RankContext } from '../rank';
import { profile } from './profiles';

const prior = ScoringModel.prior();
const empty: RankContext = { stats: new Map(), likedViewer: new Set(), recentImpressions: new Map() };

describe('reciprocal ranking', () => {
  const viewer = profile('viewer', {
    age: 30,
    minAge: 25,
    maxAge: 35,
    interests: ['Travel', 'Music', 'Art'],
  });

  it('scores sqrt(P(A likes B) · P(B likes A)), so a one-sided fit ranks below a mutual one', () => {
    // B1 suits the viewer perfectly, but the viewer is far from what B1 looks for.
    const oneSided = profile('b1', { interests: ['Travel', 'Music', 'Art'], minAge: 45, maxAge: 60 });
    const mutual = profile('b2', { interests: ['Travel', 'Music'] });
    const ranked = rankPool(prior, viewer, [oneSided, mutual], empty);
    expect(ranked.map((r) => r.userId)).toEqual(['b2', 'b1']);
    const pAB = prior.likeProbability(viewer, NEWCOMER, oneSided, NEWCOMER);
    const pBA = prior.likeProbability(oneSided, NEWCOMER, viewer, NEWCOMER);
    expect(pAB).toBeGreaterThan(prior.likeProbability(viewer, NEWCOMER, mutual, NEWCOMER));
    expect(ranked.find((r) => r.userId === 'b1')?.score).toBeCloseTo(reciprocalScore(pAB, pBA), 12);
    expect(reciprocalScore(pAB, pBA)).toBeCloseTo(Math.sqrt(pAB * pBA), 12);
  });

  it('orders by "already liked you" as a fact (P(B likes A) near 1) but never shows it in the score', () => {
    const pool = ['c1', 'c2', 'c3'].map((id) => profile(id, { interests: ['Travel'] }));
    const ranked = rankPool(prior, viewer, pool, { ...empty, likedViewer: new Set(['c3']) });
    expect(ranked[0].userId).toBe('c3');
    const pAB = prior.likeProbability(viewer, NEWCOMER, pool[2], NEWCOMER);
    const pBA = prior.likeProbability(pool[2], NEWCOMER, viewer, NEWCOMER);
    expect(LIKED_YOU_PROBABILITY).toBeGreaterThan(pBA);
    // The shown score is the model's, the same as for the identical profiles that did not like the viewer.
    expect(ranked[0].score).toBeCloseTo(reciprocalScore(pAB, pBA), 12);
    expect(ranked.map((r) => r.score)).toEqual([ranked[1].score, ranked[1].score, ranked[1].score]);
  });

  it('gives the same order for the same data, ties by user id, scores between 0 and 1', () => {
    const pool = ['d3', 'd1', 'd2'].map((id) => profile(id));
    const ranked = rankPool(prior, viewer, pool, empty);
    expect(ranked.map((r) => r.userId)).toEqual(['d1', 'd2', 'd3']);
    expect(rankPool(prior, viewer, [...pool].reverse(), empty)).toEqual(ranked);
    for (const r of ranked) expect(r.score > 0 && r.score < 1).toBe(true);
  });

  it('moves a much-shown member down: exposure control lowers the concentration of impressions', () => {
    // Five stars everyone would rank first, and forty ordinary members.
    const stars = Array.from({ length: 5 }, (_, i) =>
      profile(`star-${i}`, { interests: ['Travel', 'Music', 'Art'], photos: Array(6).fill({}) }),
    );
    const others = Array.from({ length: 40 }, (_, i) =>
      profile(`member-${String(i).padStart(2, '0')}`, { interests: [['Travel', 'Music', 'Art'][i % 3]] }),
    );
    const pool = [...stars, ...others];
    const serve = (exposureStrength: number) => {
      const impressions = new Map<string, number>();
      for (let v = 0; v < 200; v++) {
        const ranked = rankPool(prior, profile(`viewer-${v}`, viewer), pool, {
          ...empty,
          recentImpressions: impressions,
          exposureStrength,
        });
        for (const r of ranked.slice(0, 5)) impressions.set(r.userId, (impressions.get(r.userId) ?? 0) + 1);
      }
      return gini(pool.map((m) => impressions.get(m.userId) ?? 0));
    };
    const without = serve(0);
    const withControl = serve(0.3);
    expect(without).toBeGreaterThan(0.8);
    expect(withControl).toBeLessThan(without - 0.3);
  });
});

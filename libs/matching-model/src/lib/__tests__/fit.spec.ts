import { fitModel } from '../fit';
import { pairFeatures } from '../features';
import { PRIOR_PARAMS, ScoringModel, sigmoid, smoothedLogit } from '../model';
import { NEWCOMER, type SwipeRecord } from '../profile';
import { profile } from './profiles';
import { SmallWorld } from './small-world';

describe('fitting the scoring model', () => {
  const world = new SmallWorld('fit', 240);
  const swipes = world.swipes('fit-history', 40);
  const profiles = world.profiles();

  it('gives the same model for the same swipes and seed, whatever order the swipes come in', () => {
    const first = fitModel(swipes, profiles, { version: 'v1', seed: 's' });
    const again = fitModel([...swipes].reverse(), profiles, { version: 'v1', seed: 's' });
    expect(again.params).toEqual(first.params);
    expect([...again.stats]).toEqual([...first.stats]);
    expect(again.metrics).toEqual(first.metrics);
    const otherSeed = fitModel(swipes, profiles, { version: 'v1', seed: 't' });
    expect(otherSeed.params.weights).not.toEqual(first.params.weights);
  });

  it('learns from the swipes: better than the prior on swipes it did not train on', () => {
    const { params, metrics } = fitModel(swipes, profiles, { version: 'v1' });
    expect(params).toMatchObject({ kind: 'fitted', version: 'v1', factorDim: 6 });
    expect(metrics.heldOut).toBeGreaterThan(0);
    expect(metrics.auc).toBeGreaterThan(metrics.priorAuc);
    expect(metrics.logLoss).toBeLessThan(metrics.priorLogLoss);
    // Goals matter in this world, and the fit says so.
    expect(params.weights[params.featureNames.indexOf('goals')]).toBeGreaterThan(0);
    // Serialises to JSON and back into the same model.
    const restored = new ScoringModel(JSON.parse(JSON.stringify(params)));
    const [a, b] = world.members;
    expect(restored.likeProbability(a, NEWCOMER, b, NEWCOMER)).toBe(
      new ScoringModel(params).likeProbability(a, NEWCOMER, b, NEWCOMER),
    );
  });

  it('learns that people who liked the same members like alike (the collaborative signal)', () => {
    // Identical profiles: only who liked whom tells the two camps and the two kinds of target apart.
    const likers = Array.from({ length: 40 }, (_, i) => profile(`liker-${String(i).padStart(2, '0')}`));
    const targets = Array.from({ length: 40 }, (_, i) => profile(`target-${String(i).padStart(2, '0')}`));
    const camp = (i: number) => i % 2;
    const history: SwipeRecord[] = [];
    likers.forEach((a, i) =>
      targets.forEach((b, j) => {
        // Leave out each liker's swipes on two targets of each kind: the model must infer them.
        if ((j + i) % 20 < 2) return;
        history.push({ swiperId: a.userId, targetId: b.userId, liked: camp(i) === camp(j) });
      }),
    );
    const all = new Map([...likers, ...targets].map((m) => [m.userId, m]));
    const { params, stats } = fitModel(history, all, { version: 'cf', epochs: 40, holdoutShare: 0 });
    const model = new ScoringModel(params);
    let right = 0;
    let unseen = 0;
    likers.forEach((a, i) =>
      targets.forEach((b, j) => {
        if ((j + i) % 20 >= 2) return;
        unseen++;
        const p = (t: typeof b) =>
          model.likeProbability(a, stats.get(a.userId) ?? NEWCOMER, t, stats.get(t.userId) ?? NEWCOMER);
        const sameKind = targets.find((t, k) => k !== j && camp(k) === camp(j)) ?? b;
        const otherKind = targets.find((_, k) => camp(k) !== camp(j)) ?? b;
        // The unseen target scores like the targets of its own kind, not like the others.
        if (Math.abs(p(b) - p(sameKind)) < Math.abs(p(b) - p(otherKind))) right++;
      }),
    );
    expect(unseen).toBe(160);
    expect(right).toBe(unseen);
  });

  it('scores a newcomer from the features alone (no factors, neutral propensity), and the prior ignores swipes', () => {
    const { params, stats } = fitModel(swipes, profiles, { version: 'v1' });
    const model = new ScoringModel(params);
    const b = world.members[1];
    const bStats = stats.get(b.userId) ?? NEWCOMER;
    const newcomer = profile('newcomer', { age: 30, interests: ['Travel', 'Yoga'] });
    expect(stats.has('newcomer')).toBe(false);
    const x = pairFeatures(newcomer, b);
    const appeal = smoothedLogit(
      bStats.likesReceived,
      bStats.swipesReceived,
      params.globalLikeRate,
      params.smoothing,
    );
    const z =
      params.intercept + params.weights.reduce((s, w, i) => s + w * x[i], 0) + params.appealWeight * appeal;
    expect(model.likeProbability(newcomer, NEWCOMER, b, bStats)).toBeCloseTo(sigmoid(z), 12);
    // Before any fit, the population prior scores everyone from features, whatever their history.
    const prior = ScoringModel.prior();
    expect(prior.version).toBe(PRIOR_PARAMS.version);
    expect(prior.likeProbability(newcomer, NEWCOMER, b, bStats)).toBe(
      prior.likeProbability(newcomer, NEWCOMER, b, NEWCOMER),
    );
  });
});

import { FEATURE_COUNT, FEATURE_NAMES, pairFeatures } from './features';
import { auc, logLoss } from './metrics';
import { logit, PRIOR_PARAMS, ScoringModel, sigmoid, smoothedLogit, type ModelParams } from './model';
import type { MemberStats, ScoringProfile, SwipeRecord } from './profile';
import { hashText, SeededRandom } from './rng';

/** How a fit runs; every default is what the refit job uses. */
export interface FitOptions {
  version: string;
  /** The seed of the shuffles, initial factors and held-out split: same seed and swipes, same model. */
  seed?: string;
  factorDim?: number;
  epochs?: number;
  learningRate?: number;
  /** Learning rate of the factors (they start near zero and need bigger steps to leave it). */
  factorLearningRate?: number;
  /** L2 strength on the feature weights. */
  l2?: number;
  /** L2 strength on the factors (they are many and each sees few swipes). */
  factorL2?: number;
  /** Share of swipes kept out of training to measure the model. */
  holdoutShare?: number;
  /** Pseudo-swipes smoothing a member's like rates. */
  smoothing?: number;
}

/** How a fit did, on swipes it did not train on (compared with the population prior). */
export interface FitMetrics {
  trainedOn: number;
  heldOut: number;
  likeRate: number;
  logLoss: number;
  auc: number;
  priorLogLoss: number;
  priorAuc: number;
}

export interface FitResult {
  params: ModelParams;
  /** Per member: factors (empty when they never swiped or were never swiped on) and like counts. */
  stats: Map<string, MemberStats>;
  metrics: FitMetrics;
}

export const FIT_DEFAULTS = {
  seed: 'mate-scoring',
  factorDim: 6,
  epochs: 12,
  learningRate: 0.05,
  factorLearningRate: 0.1,
  l2: 1e-4,
  factorL2: 0.04,
  holdoutShare: 0.1,
  smoothing: 10,
} as const;

const INITIAL_FACTOR_SD = 0.1;

/**
 * Fits the model to recorded swipes by stochastic gradient descent on the log loss: logistic
 * regression over the pairwise features (L2), the swiper's propensity and the target's appeal
 * (smoothed like rates, leave-one-out while training so a swipe never predicts itself), and a
 * low-rank logistic matrix factorisation taste(A)·appeal(B) — the collaborative signal: members
 * who liked the same people get similar tastes, so they are offered what the others liked.
 * Deterministic: swipes are put in a fixed order first and all randomness comes from `seed`.
 */
export function fitModel(
  swipes: readonly SwipeRecord[],
  profiles: ReadonlyMap<string, ScoringProfile>,
  options: FitOptions,
): FitResult {
  const o = { ...FIT_DEFAULTS, ...options };
  const k = o.factorDim;
  const rows = swipes
    .filter((s) => profiles.has(s.swiperId) && profiles.has(s.targetId) && s.swiperId !== s.targetId)
    .sort((x, y) => compare(x.swiperId, y.swiperId) || compare(x.targetId, y.targetId));

  // Members by index; every swipe row as (swiper index, target index).
  const ids: string[] = [];
  const members: ScoringProfile[] = [];
  const index = new Map<string, number>();
  const indexOf = (id: string) => {
    let i = index.get(id);
    if (i === undefined) {
      i = ids.length;
      index.set(id, i);
      ids.push(id);
      members.push(profiles.get(id) as ScoringProfile);
    }
    return i;
  };
  const holdout = Math.round(o.holdoutShare * 1000);
  const train: Row[] = [];
  const test: Row[] = [];
  for (const s of rows) {
    const row = { a: indexOf(s.swiperId), b: indexOf(s.targetId), y: s.liked ? 1 : 0 };
    (hashText(`${o.seed}:${s.swiperId}:${s.targetId}`) % 1000 < holdout ? test : train).push(row);
  }
  const n = ids.length;

  // Like counts from the training swipes (the terms the fit learns weights for).
  const likesGiven = new Float64Array(n);
  const swipesGiven = new Float64Array(n);
  const likesReceived = new Float64Array(n);
  const swipesReceived = new Float64Array(n);
  let trainLikes = 0;
  for (const { a, b, y } of train) {
    likesGiven[a] += y;
    swipesGiven[a]++;
    likesReceived[b] += y;
    swipesReceived[b]++;
    trainLikes += y;
  }
  const g = clampRate(train.length > 0 ? trainLikes / train.length : PRIOR_PARAMS.globalLikeRate);
  const m = o.smoothing;

  // The training rows, features computed once.
  const t = train.length;
  const X = new Float64Array(t * FEATURE_COUNT);
  const Y = new Uint8Array(t);
  const A = new Uint32Array(t);
  const B = new Uint32Array(t);
  const liker = new Float64Array(t);
  const appeal = new Float64Array(t);
  const buffer = new Float64Array(FEATURE_COUNT);
  train.forEach(({ a, b, y }, r) => {
    X.set(pairFeatures(members[a], members[b], buffer), r * FEATURE_COUNT);
    Y[r] = y;
    A[r] = a;
    B[r] = b;
    liker[r] = smoothedLogit(likesGiven[a] - y, swipesGiven[a] - 1, g, m);
    appeal[r] = smoothedLogit(likesReceived[b] - y, swipesReceived[b] - 1, g, m);
  });

  const rng = new SeededRandom(o.seed);
  const weights = Float64Array.from(PRIOR_PARAMS.weights);
  let intercept = logit(g);
  let likerWeight = 0;
  let appealWeight = 0;
  const taste = new Float64Array(n * k);
  const appealF = new Float64Array(n * k);
  for (let i = 0; i < n * k; i++) {
    taste[i] = rng.normal(0, INITIAL_FACTOR_SD);
    appealF[i] = rng.normal(0, INITIAL_FACTOR_SD);
  }

  const order = Uint32Array.from({ length: t }, (_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    const decay = 1 / (1 + epoch * 0.3);
    const lr = o.learningRate * decay;
    const flr = o.factorLearningRate * decay;
    rng.shuffle(order);
    for (let q = 0; q < t; q++) {
      const r = order[q];
      const xo = r * FEATURE_COUNT;
      const ao = A[r] * k;
      const bo = B[r] * k;
      let z = intercept + likerWeight * liker[r] + appealWeight * appeal[r];
      for (let i = 0; i < FEATURE_COUNT; i++) z += weights[i] * X[xo + i];
      for (let i = 0; i < k; i++) z += taste[ao + i] * appealF[bo + i];
      const e = sigmoid(z) - Y[r];
      intercept -= lr * e;
      likerWeight -= lr * (e * liker[r] + o.l2 * likerWeight);
      appealWeight -= lr * (e * appeal[r] + o.l2 * appealWeight);
      for (let i = 0; i < FEATURE_COUNT; i++) weights[i] -= lr * (e * X[xo + i] + o.l2 * weights[i]);
      for (let i = 0; i < k; i++) {
        const ta = taste[ao + i];
        const ab = appealF[bo + i];
        taste[ao + i] -= flr * (e * ab + o.factorL2 * ta);
        appealF[bo + i] -= flr * (e * ta + o.factorL2 * ab);
      }
    }
  }

  const params: ModelParams = {
    version: o.version,
    kind: 'fitted',
    featureNames: FEATURE_NAMES,
    intercept: round(intercept),
    weights: Array.from(weights, round),
    likerWeight: round(likerWeight),
    appealWeight: round(appealWeight),
    factorDim: k,
    globalLikeRate: round(g),
    smoothing: m,
  };

  // Serving statistics: factors of whoever the fit saw in that role, like counts over all swipes read.
  const servingCounts = new Float64Array(n * 4);
  for (const { a, b, y } of [...train, ...test]) {
    servingCounts[a * 4] += y;
    servingCounts[a * 4 + 1]++;
    servingCounts[b * 4 + 2] += y;
    servingCounts[b * 4 + 3]++;
  }
  const stats = new Map<string, MemberStats>();
  const trainStats: MemberStats[] = [];
  for (let i = 0; i < n; i++) {
    const tasteOf = swipesGiven[i] > 0 ? Array.from(taste.subarray(i * k, i * k + k), round) : [];
    const appealOf = swipesReceived[i] > 0 ? Array.from(appealF.subarray(i * k, i * k + k), round) : [];
    trainStats.push({
      taste: tasteOf,
      appeal: appealOf,
      likesGiven: likesGiven[i],
      swipesGiven: swipesGiven[i],
      likesReceived: likesReceived[i],
      swipesReceived: swipesReceived[i],
    });
    stats.set(ids[i], {
      taste: tasteOf,
      appeal: appealOf,
      likesGiven: servingCounts[i * 4],
      swipesGiven: servingCounts[i * 4 + 1],
      likesReceived: servingCounts[i * 4 + 2],
      swipesReceived: servingCounts[i * 4 + 3],
    });
  }

  const metrics = evaluate(new ScoringModel(params), test, members, trainStats, t);
  return { params, stats, metrics };
}

/** Log loss and AUC of the fitted model and of the prior on the held-out swipes. */
function evaluate(
  model: ScoringModel,
  test: readonly Row[],
  members: readonly ScoringProfile[],
  stats: readonly MemberStats[],
  trainedOn: number,
): FitMetrics {
  const prior = ScoringModel.prior();
  const fitted = new Float64Array(test.length);
  const fromPrior = new Float64Array(test.length);
  const outcomes = new Uint8Array(test.length);
  let likes = 0;
  test.forEach(({ a, b, y }, i) => {
    fitted[i] = model.likeProbability(members[a], stats[a], members[b], stats[b]);
    fromPrior[i] = prior.likeProbability(members[a], stats[a], members[b], stats[b]);
    outcomes[i] = y;
    likes += y;
  });
  return {
    trainedOn,
    heldOut: test.length,
    likeRate: round(test.length > 0 ? likes / test.length : 0),
    logLoss: round(logLoss(fitted, outcomes)),
    auc: round(auc(fitted, outcomes)),
    priorLogLoss: round(logLoss(fromPrior, outcomes)),
    priorAuc: round(auc(fromPrior, outcomes)),
  };
}

/** A swipe as member indexes and outcome. */
interface Row {
  a: number;
  b: number;
  y: number;
}

const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
const clampRate = (p: number) => Math.min(0.99, Math.max(0.01, p));
/** Parameters are stored with 6 significant digits: enough, and the JSON stays readable. */
const round = (v: number) => Number(v.toPrecision(6));

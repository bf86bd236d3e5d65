import { FEATURE_COUNT, FEATURE_NAMES, pairFeatures } from './features';
import type { MemberStats, ScoringProfile } from './profile';

/**
 * Everything a fitted model is, as JSON (the `params` of a scoring_model row): read it to see
 * what the model learned. The per-member part (factors, like counts) is in member_factor.
 */
export interface ModelParams {
  version: string;
  /** 'prior' until a refit has enough swipes; then 'fitted'. */
  kind: 'prior' | 'fitted';
  featureNames: readonly string[];
  intercept: number;
  /** One weight per feature, in featureNames' order. */
  weights: readonly number[];
  /** Weight of the swiper's like propensity (smoothed like rate, as a logit against the population's). */
  likerWeight: number;
  /** Weight of the target's appeal (smoothed rate of likes received, as a logit against the population's). */
  appealWeight: number;
  /** Length of the taste and appeal factors (0: no collaborative term). */
  factorDim: number;
  /** Share of all recorded swipes that were likes. */
  globalLikeRate: number;
  /** Pseudo-swipes at the global rate that smooth a member's own rates (few swipes say little). */
  smoothing: number;
}

/** P(B likes A) once B has liked A: the fact, short of certainty (a like can be regretted). */
export const LIKED_YOU_PROBABILITY = 0.95;

/** The version of the population prior, used until the first successful refit. */
export const PRIOR_VERSION = 'prior-1';

/**
 * The population prior: fixed, hand-set weights saying what most people like (shared interests,
 * someone near the middle of their age range, close by, compatible goals and habits, a full
 * profile), with no per-member terms. A newcomer is scored with this; a refit replaces it.
 */
export const PRIOR_PARAMS: ModelParams = {
  version: PRIOR_VERSION,
  kind: 'prior',
  featureNames: FEATURE_NAMES,
  intercept: -1.6,
  weights: [1.0, 0.8, 0.8, 0.8, -0.3, -0.6, -0.2, 0.6, 0.3, 0.2, 0.2, 0.2, 0.1, 0.5, 0.4],
  likerWeight: 0,
  appealWeight: 0,
  factorDim: 0,
  globalLikeRate: 0.2,
  smoothing: 10,
};

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
export const logit = (p: number) => Math.log(p / (1 - p));

/** A rate of `hits` in `n`, pulled toward `prior` by `m` pseudo-observations, as a logit against the prior. */
export function smoothedLogit(hits: number, n: number, prior: number, m: number): number {
  return logit((hits + m * prior) / (n + m)) - logit(prior);
}

/**
 * P(A likes B): logistic regression over the pairwise features, plus A's like propensity, B's
 * appeal and the collaborative term taste(A)·appeal(B) learned from swipes. A member without
 * swipes has neutral terms, so a newcomer gets the population's answer from the features alone.
 */
export class ScoringModel {
  private readonly buffer = new Float64Array(FEATURE_COUNT);

  constructor(readonly params: ModelParams) {
    if (params.weights.length !== FEATURE_COUNT) {
      throw new Error(
        `model ${params.version} has ${params.weights.length} weights for ${FEATURE_COUNT} features`,
      );
    }
  }

  static prior(): ScoringModel {
    return new ScoringModel(PRIOR_PARAMS);
  }

  get version(): string {
    return this.params.version;
  }

  /** The logit of P(A likes B); `a` and `b` carry each member's learned statistics. */
  logit(a: ScoringProfile, aStats: MemberStats, b: ScoringProfile, bStats: MemberStats): number {
    const p = this.params;
    const x = pairFeatures(a, b, this.buffer);
    let z = p.intercept;
    for (let i = 0; i < FEATURE_COUNT; i++) z += p.weights[i] * x[i];
    z += p.likerWeight * smoothedLogit(aStats.likesGiven, aStats.swipesGiven, p.globalLikeRate, p.smoothing);
    z +=
      p.appealWeight *
      smoothedLogit(bStats.likesReceived, bStats.swipesReceived, p.globalLikeRate, p.smoothing);
    z += dot(aStats.taste, bStats.appeal, p.factorDim);
    return z;
  }

  /** P(A likes B). */
  likeProbability(a: ScoringProfile, aStats: MemberStats, b: ScoringProfile, bStats: MemberStats): number {
    return sigmoid(this.logit(a, aStats, b, bStats));
  }

  toJSON(): ModelParams {
    return this.params;
  }
}

/** taste·appeal over the first `dim` entries; 0 when either side has no factors (a newcomer). */
export function dot(taste: readonly number[], appeal: readonly number[], dim: number): number {
  if (taste.length < dim || appeal.length < dim) return 0;
  let s = 0;
  for (let i = 0; i < dim; i++) s += taste[i] * appeal[i];
  return s;
}

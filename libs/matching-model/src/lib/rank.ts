import { LIKED_YOU_PROBABILITY, type ScoringModel } from './model';
import { NEWCOMER, type MemberStats, type ScoringProfile } from './profile';

/**
 * How strongly recent exposure pushes a member down the queue: the ranking key is the reciprocal
 * score times ((1 + mean impressions of the pool) / (1 + the member's impressions))^strength.
 * Scores say who fits; this keeps the much-liked few from filling every queue (issue 8).
 */
export const EXPOSURE_STRENGTH = 0.3;

/** What the ranking knows about the pool besides the profiles. */
export interface RankContext {
  /** Learned statistics by member id; a member missing here is a newcomer. */
  stats: ReadonlyMap<string, MemberStats>;
  /** Members of the pool who already liked the viewer. */
  likedViewer: ReadonlySet<string>;
  /** How many viewers each pool member was shown to recently (each viewer counted once). */
  recentImpressions: ReadonlyMap<string, number>;
  exposureStrength?: number;
}

export interface RankedCandidate {
  userId: string;
  /**
   * The reciprocal score sqrt(P(viewer likes them) · P(they like the viewer)), 0..1, both
   * predicted by the model. Shown as 'N% Match', so it never uses the fact that they already
   * liked the viewer: a jump to ~95 % would tell the viewer who liked them before they swipe.
   */
  score: number;
}

/** sqrt(P(A likes B) · P(B likes A)): high only when both sides are likely to want it. */
export function reciprocalScore(pAB: number, pBA: number): number {
  return Math.sqrt(pAB * pBA);
}

/**
 * Orders the pool for the viewer, best first: by reciprocal score, where "B already liked the
 * viewer" is taken as a fact for the order only (not for the shown score), discounted by B's
 * recent exposure relative to the pool's. Ties go by user id, so the same data always gives the
 * same order.
 */
export function rankPool(
  model: ScoringModel,
  viewer: ScoringProfile,
  pool: readonly ScoringProfile[],
  ctx: RankContext,
): RankedCandidate[] {
  const viewerStats = ctx.stats.get(viewer.userId) ?? NEWCOMER;
  const strength = ctx.exposureStrength ?? EXPOSURE_STRENGTH;
  let totalImpressions = 0;
  for (const b of pool) totalImpressions += ctx.recentImpressions.get(b.userId) ?? 0;
  const meanImpressions = pool.length > 0 ? totalImpressions / pool.length : 0;

  const keyed = pool.map((b) => {
    const bStats = ctx.stats.get(b.userId) ?? NEWCOMER;
    const pAB = model.likeProbability(viewer, viewerStats, b, bStats);
    const pBA = model.likeProbability(b, bStats, viewer, viewerStats);
    const score = reciprocalScore(pAB, pBA);
    const ordering = ctx.likedViewer.has(b.userId) ? reciprocalScore(pAB, LIKED_YOU_PROBABILITY) : score;
    const exposure = ((1 + meanImpressions) / (1 + (ctx.recentImpressions.get(b.userId) ?? 0))) ** strength;
    return { userId: b.userId, score, key: ordering * exposure };
  });
  keyed.sort((x, y) => y.key - x.key || (x.userId < y.userId ? -1 : x.userId > y.userId ? 1 : 0));
  return keyed.map(({ userId, score }) => ({ userId, score }));
}

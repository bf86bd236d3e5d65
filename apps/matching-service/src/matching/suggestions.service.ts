import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SuggestionDto } from '@mate/contracts';
import { CANDIDATE_POOL_SIZE, CandidateQuery } from '../candidates/candidate-query';
import { namedQuery } from '@mate/server-kit';
import { ScoringService } from '../scoring';
import type { RankedCandidate } from '../scoring/model/rank';
import { POOL_START, type PoolStart } from './pool-start';
import { toSuggestion } from './suggestion.mapper';

/**
 * Discover's queue: the candidate pool (every hard rule, both ways), ranked by the reciprocal
 * score, the best `limit` answered. Each suggestion served is recorded as an impression with the
 * model version that scored it (one row per viewer and member, moved forward on each serving).
 */
@Injectable()
export class SuggestionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly candidates: CandidateQuery,
    private readonly scoring: ScoringService,
    @Inject(POOL_START) private readonly poolStart: PoolStart,
  ) {}

  /**
   * Suggestions for a member matching knows (a profile.updated or preferences.updated arrived);
   * none for anyone else, since no rule can be checked without their profile. The pool carries
   * only what ranking reads; the cards are read for the `limit` served, beside their impressions.
   */
  async suggestions(viewerId: string, limit: number): Promise<SuggestionDto[]> {
    const [viewer, pool] = await Promise.all([
      this.candidates.profile(viewerId),
      this.candidates.pool(viewerId, CANDIDATE_POOL_SIZE, this.poolStart()),
    ]);
    if (!viewer || pool.length === 0) return [];
    const { modelVersion, ranked } = await this.scoring.rank(viewer, pool);
    const served = ranked.slice(0, limit);
    const [cards] = await Promise.all([
      this.candidates.cards(served.map((s) => s.userId)),
      this.recordImpressions(viewerId, served, modelVersion),
    ]);
    const distanceOf = new Map(pool.map((m) => [m.userId, m.distanceKm]));
    return served.flatMap(({ userId, score }) => {
      const card = cards.get(userId);
      return card ? [toSuggestion(card, score, distanceOf.get(userId) ?? null)] : [];
    });
  }

  /** The card of a member the viewer rewound to, scored as the pool would score it. */
  async card(viewerId: string, targetId: string): Promise<SuggestionDto | null> {
    const [viewer, member, cards] = await Promise.all([
      this.candidates.profile(viewerId),
      this.candidates.member(viewerId, targetId),
      this.candidates.cards([targetId]),
    ]);
    const card = cards.get(targetId);
    if (!member || !card) return null;
    const { modelVersion, ranked } = viewer
      ? await this.scoring.rank(viewer, [member])
      : { modelVersion: null, ranked: [] };
    const score = ranked[0]?.score ?? 0;
    if (modelVersion) await this.recordImpressions(viewerId, [{ userId: targetId, score }], modelVersion);
    return toSuggestion(card, score, member.distanceKm);
  }

  private async recordImpressions(
    viewerId: string,
    served: RankedCandidate[],
    modelVersion: string,
  ): Promise<void> {
    if (served.length === 0) return;
    await namedQuery(
      this.dataSource,
      'record-impressions',
      `INSERT INTO impression (viewer_id, target_id, score, model_version)
       SELECT $1, s.target_id, s.score, $4 FROM unnest($2::uuid[], $3::real[]) AS s (target_id, score)
         -- A member erased since the pool was read is left out: their erasure deletes the candidate
         -- row first, and this waits for it (or the erasure for this) (docs/adr/0016-member-data.md).
         JOIN candidate c ON c.user_id = s.target_id
       -- Rows locked in one order, so two loads of one viewer at once cannot deadlock.
       ORDER BY s.target_id
       FOR KEY SHARE OF c
       ON CONFLICT (viewer_id, target_id) DO UPDATE
         SET score = EXCLUDED.score, model_version = EXCLUDED.model_version, served_at = now()`,
      [viewerId, served.map((s) => s.userId), served.map((s) => s.score), modelVersion],
    );
  }
}

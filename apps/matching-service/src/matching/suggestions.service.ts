import { Inject, Injectable } from '@nestjs/common';
import type { SuggestionDto } from '@mate/contracts';
import { CANDIDATE_POOL_SIZE, CandidateRepository } from '../candidates/candidate.repository';
import { ImpressionRepository } from '../impressions/impression.repository';
import { EXPOSURE_WINDOW_HOURS, ScoringService } from '../scoring';
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
    private readonly candidates: CandidateRepository,
    private readonly scoring: ScoringService,
    private readonly impressions: ImpressionRepository,
    @Inject(POOL_START) private readonly poolStart: PoolStart,
  ) {}

  /**
   * Suggestions for a member matching knows (a profile.updated or preferences.updated arrived);
   * none for anyone else, since no rule can be checked without their profile. Two round trips:
   * the viewer, their pool (only what ranking reads) and its ranking context in one statement;
   * then the cards of the `limit` served, read as their impressions are written.
   */
  async suggestions(viewerId: string, limit: number): Promise<SuggestionDto[]> {
    const model = await this.scoring.currentModel();
    const { viewer, pool, context } = await this.candidates.rankablePool(
      viewerId,
      CANDIDATE_POOL_SIZE,
      this.poolStart(),
      model.version,
      EXPOSURE_WINDOW_HOURS,
    );
    if (!viewer || pool.length === 0) return [];
    const { modelVersion, ranked } = this.scoring.rankWith(model, viewer, pool, context);
    const served = ranked.slice(0, limit);
    const cards = await this.impressions.serve(viewerId, served, modelVersion);
    const distanceOf = new Map(pool.map((m) => [m.userId, m.distanceKm]));
    return served.flatMap(({ userId, score }) => {
      const card = cards.get(userId);
      return card ? [toSuggestion(card, score, distanceOf.get(userId) ?? null)] : [];
    });
  }

  /** The card of a member the viewer rewound to, scored as the pool would score it. */
  async card(viewerId: string, targetId: string): Promise<SuggestionDto | null> {
    const [viewer, member] = await Promise.all([
      this.candidates.profile(viewerId),
      this.candidates.member(viewerId, targetId),
    ]);
    if (!member) return null;
    if (!viewer) {
      const card = (await this.candidates.cards([targetId])).get(targetId);
      return card ? toSuggestion(card, 0, member.distanceKm) : null;
    }
    const { modelVersion, ranked } = await this.scoring.rank(viewer, [member]);
    const score = ranked[0]?.score ?? 0;
    const card = (await this.impressions.serve(viewerId, [{ userId: targetId, score }], modelVersion)).get(
      targetId,
    );
    return card ? toSuggestion(card, score, member.distanceKm) : null;
  }
}

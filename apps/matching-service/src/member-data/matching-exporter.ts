import { Injectable } from '@nestjs/common';
import type { MatchingExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';
import { ImpressionRepository } from '../impressions/impression.repository';
import { MatchesRepository } from '../matching/matches.repository';
import { SwipesRepository } from '../matching/swipes.repository';
import { ScoringRepository } from '../scoring/scoring.repository';

/**
 * matching-service's part of a member's data export (issue 12): their likes and passes, their
 * matches, how many members liked them (not who: that is the others' to tell), the members
 * Discover showed them, and what the ranking model learned of them. An ended match (unmatch,
 * block) leaves the match table, so every match here is current (`endedAt` null); chat and safety
 * keep the history of ended ones.
 */
@Injectable()
export class MatchingExporter implements MemberExporter<MatchingExportPart> {
  constructor(
    private readonly swipes: SwipesRepository,
    private readonly matches: MatchesRepository,
    private readonly impressions: ImpressionRepository,
    private readonly scoring: ScoringRepository,
  ) {}

  async exportMember(userId: string): Promise<MatchingExportPart> {
    const [swipes, matches, likesReceived, shown, factors] = await Promise.all([
      this.swipes.swipesBy(userId),
      this.matches.matchIdsOf(userId),
      this.swipes.likesReceivedCount(userId),
      this.impressions.shownTo(userId),
      this.scoring.factorsOf(userId),
    ]);
    const swipe = (s: (typeof swipes)[number]) => ({ userId: s.target_id, createdAt: s.created_at.toISOString() });
    return {
      likesGiven: swipes.filter((s) => s.liked).map(swipe),
      passes: swipes.filter((s) => !s.liked).map(swipe),
      matches: matches.map((m) => ({
        matchId: m.id,
        userId: m.other_id,
        createdAt: m.created_at.toISOString(),
        endedAt: null,
      })),
      likesReceivedCount: likesReceived,
      suggestionsShown: shown.map((i) => ({
        userId: i.target_id,
        score: i.score,
        modelVersion: i.model_version,
        servedAt: i.served_at.toISOString(),
      })),
      rankingProfile: factors
        ? {
            modelVersion: factors.model_version,
            likesGiven: factors.likes_given,
            swipesGiven: factors.swipes_given,
            likesReceived: factors.likes_received,
            swipesReceived: factors.swipes_received,
            taste: factors.taste,
            appeal: factors.appeal,
            updatedAt: factors.updated_at.toISOString(),
          }
        : null,
    };
  }
}

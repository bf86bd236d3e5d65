import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MatchingExportPart } from '@mate/contracts';
import type { MemberExporter } from '@mate/server-kit';

/**
 * matching-service's part of a member's data export (issue 12): their likes and passes, their
 * matches, how many members liked them (not who: that is the others' to tell), the members
 * Discover showed them, and what the ranking model learned of them. An ended match (unmatch,
 * block) leaves the match table, so every match here is current (`endedAt` null); chat and safety
 * keep the history of ended ones.
 */
@Injectable()
export class MatchingExporter implements MemberExporter<MatchingExportPart> {
  constructor(private readonly dataSource: DataSource) {}

  async exportMember(userId: string): Promise<MatchingExportPart> {
    const [swipes, matches, [received], shown, [factors]] = await Promise.all([
      this.dataSource.query<{ target_id: string; liked: boolean; created_at: Date }[]>(
        'SELECT target_id, liked, created_at FROM swipe WHERE swiper_id = $1 ORDER BY created_at, target_id',
        [userId],
      ),
      this.dataSource.query<{ id: string; other_id: string; created_at: Date }[]>(
        `SELECT id, CASE WHEN user_a = $1 THEN user_b ELSE user_a END AS other_id, created_at
           FROM match WHERE user_a = $1 OR user_b = $1 ORDER BY created_at, id`,
        [userId],
      ),
      this.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM swipe WHERE target_id = $1 AND liked',
        [userId],
      ),
      this.dataSource.query<{ target_id: string; score: number; model_version: string; served_at: Date }[]>(
        `SELECT target_id, score, model_version, served_at FROM impression
          WHERE viewer_id = $1 ORDER BY served_at, target_id`,
        [userId],
      ),
      this.dataSource.query<
        {
          model_version: string;
          likes_given: number;
          swipes_given: number;
          likes_received: number;
          swipes_received: number;
          taste: number[];
          appeal: number[];
          updated_at: Date;
        }[]
      >('SELECT * FROM member_factor WHERE user_id = $1', [userId]),
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
      likesReceivedCount: received.n,
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

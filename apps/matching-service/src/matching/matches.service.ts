import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MatchDto, MatchStatsDto } from '@mate/contracts';

/** A member's matches and the dashboard's numbers, read from the service's own tables. */
@Injectable()
export class MatchesService {
  constructor(private readonly dataSource: DataSource) {}

  /** The member's matches, newest first, each with the other member's name and primary photo. */
  async myMatches(userId: string): Promise<MatchDto[]> {
    const rows: {
      match_id: string;
      other_id: string;
      created_at: Date;
      name: string | null;
      picture: string | null;
    }[] = await this.dataSource.query(
      `SELECT m.match_id, m.other_id, m.created_at, c.name, c.profile_picture AS picture
         FROM (
           SELECT id AS match_id, user_b AS other_id, created_at FROM match WHERE user_a = $1
           UNION ALL
           SELECT id, user_a, created_at FROM match WHERE user_b = $1
         ) m LEFT JOIN candidate c ON c.user_id = m.other_id
         ORDER BY m.created_at DESC, m.match_id`,
      [userId],
    );
    return rows.map((r) => ({
      matchId: r.match_id,
      userId: r.other_id,
      name: r.name,
      profilePicture: r.picture,
      matchedAt: r.created_at.toISOString(),
    }));
  }

  /**
   * Matches, likes received from members still on the platform and not in a blocked pair with the
   * member (whoever blocked: they can never match), and likes sent. An ended match (unmatch or
   * block) is gone from the match table, so from both counts.
   */
  async stats(userId: string): Promise<MatchStatsDto> {
    const [row]: { matches: number; likes_received: number; likes_sent: number }[] =
      await this.dataSource.query(
        `SELECT
         (SELECT count(*) FROM match WHERE user_a = $1 OR user_b = $1)::int AS matches,
         (SELECT count(*) FROM swipe s JOIN candidate c ON c.user_id = s.swiper_id
            WHERE s.target_id = $1 AND s.liked AND NOT c.deleted
              AND NOT EXISTS (SELECT 1 FROM blocked_pair bp
                WHERE bp.user_a = least(s.swiper_id, s.target_id) AND bp.user_b = greatest(s.swiper_id, s.target_id))
           )::int AS likes_received,
         (SELECT count(*) FROM swipe WHERE swiper_id = $1 AND liked)::int AS likes_sent`,
        [userId],
      );
    return { matches: row.matches, likesReceived: row.likes_received, likesSent: row.likes_sent };
  }
}

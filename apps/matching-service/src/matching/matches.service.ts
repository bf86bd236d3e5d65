import { Injectable } from '@nestjs/common';
import type { MatchDto, MatchStatsDto } from '@mate/contracts';
import { MatchesRepository } from './matches.repository';

/** A member's matches and the dashboard's numbers, read from the service's own tables. */
@Injectable()
export class MatchesService {
  constructor(private readonly matches: MatchesRepository) {}

  /** The member's matches, newest first, each with the other member's name and primary photo. */
  async myMatches(userId: string): Promise<MatchDto[]> {
    const rows = await this.matches.matchesOf(userId);
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
    const row = await this.matches.statsOf(userId);
    return { matches: row.matches, likesReceived: row.likes_received, likesSent: row.likes_sent };
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { pairBlockedSql } from '@mate/server-kit';

/** One of a member's matches with the other member as matching knows them. */
export interface MemberMatchRow {
  match_id: string;
  other_id: string;
  created_at: Date;
  name: string | null;
  picture: string | null;
}

/** The dashboard's numbers of a member. */
export interface MatchStatsRow {
  matches: number;
  likes_received: number;
  likes_sent: number;
}

const MATCHES_OF_MEMBER = `
SELECT m.match_id, m.other_id, m.created_at, c.name, c.profile_picture AS picture
  FROM (
    SELECT id AS match_id, user_b AS other_id, created_at FROM match WHERE user_a = $1
    UNION ALL
    SELECT id, user_a, created_at FROM match WHERE user_b = $1
  ) m LEFT JOIN candidate c ON c.user_id = m.other_id
  ORDER BY m.created_at DESC, m.match_id`;

const STATS_OF_MEMBER = `
SELECT
  (SELECT count(*) FROM match WHERE user_a = $1 OR user_b = $1)::int AS matches,
  (SELECT count(*) FROM swipe s JOIN candidate c ON c.user_id = s.swiper_id
     WHERE s.target_id = $1 AND s.liked AND NOT c.deleted
       AND NOT ${pairBlockedSql('s.swiper_id', 's.target_id')}
  )::int AS likes_received,
  (SELECT count(*) FROM swipe WHERE swiper_id = $1 AND liked)::int AS likes_sent`;

const LIVE_MATCH_COUNT = 'SELECT count(*)::int AS n FROM match WHERE user_a = $1 OR user_b = $1';

const MATCHES_EVER_MADE =
  'SELECT count(*)::int AS n FROM (SELECT match_id AS id FROM match_history UNION SELECT id FROM match) made';

const MATCHES_OF_MEMBER_BY_AGE = `SELECT id, CASE WHEN user_a = $1 THEN user_b ELSE user_a END AS other_id, created_at
  FROM match WHERE user_a = $1 OR user_b = $1 ORDER BY created_at, id`;

const END_PAIR_MATCH = 'DELETE FROM match WHERE user_a = $1 AND user_b = $2';

const ERASE_MEMBER_MATCHES =
  'WITH gone AS (DELETE FROM match WHERE user_a = $1 OR user_b = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone';

/** The `match` and `match_history` tables as members and the admin area read them. */
@Injectable()
export class MatchesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The member's matches, newest first, each with the other member's name and primary photo. */
  matchesOf(userId: string): Promise<MemberMatchRow[]> {
    return this.dataSource.query(MATCHES_OF_MEMBER, [userId]);
  }

  /** The member's matches, oldest first, without the other member's card (their data export). */
  matchIdsOf(userId: string): Promise<{ id: string; other_id: string; created_at: Date }[]> {
    return this.dataSource.query(MATCHES_OF_MEMBER_BY_AGE, [userId]);
  }

  /**
   * Matches, likes received from members still on the platform and not in a blocked pair with the
   * member, and likes sent.
   */
  async statsOf(userId: string): Promise<MatchStatsRow> {
    const [row]: MatchStatsRow[] = await this.dataSource.query(STATS_OF_MEMBER, [userId]);
    return row;
  }

  /** The member's matches that stand now (an unmatch, a block or an erasure deletes a match). */
  async liveMatchCount(userId: string): Promise<number> {
    const rows = await this.dataSource.query<{ n: number }[]>(LIVE_MATCH_COUNT, [userId]);
    return rows[0]?.n ?? 0;
  }

  /** Every match ever made, ended ones included; a live match without its history row counts once. */
  async matchesEverMade(): Promise<number> {
    const rows = await this.dataSource.query<{ n: number }[]>(MATCHES_EVER_MADE);
    return rows[0]?.n ?? 0;
  }

  /** Ends the pair's match, if any (its row goes), in the caller's transaction; the pair ascending. */
  async endPairMatch(manager: EntityManager, userA: string, userB: string): Promise<void> {
    await manager.query(END_PAIR_MATCH, [userA, userB]);
  }

  /** Deletes the member's matches (their erasure); answers how many went. */
  async eraseMember(manager: EntityManager, userId: string): Promise<number> {
    const [{ n }] = await manager.query<{ n: number }[]>(ERASE_MEMBER_MATCHES, [userId]);
    return n;
  }
}

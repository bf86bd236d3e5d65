import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { orderedPairOf, pairIdOf } from '@mate/contracts';
import { insertOutboxFacts, pairBlockedSql } from '@mate/server-kit';
import { mutualRulesSql } from '../candidates/candidate-rules';
import { onceUnderPairLock } from './pair-transaction';
import { LIKE_SQL, type LikeRow } from './swipes.statements';

export type { LikeCreatedByStatement, LikeRow, MatchCreatedByStatement } from './swipes.statements';

/** An outbox row built by `OutboxService.factRow`, written by a swipe's statement when it inserts. */
export interface SwipeFact {
  id: string;
  body: object;
}

/** A like to record: the match and like.created/match.created rows are used only when it inserts. */
export interface LikeInput {
  viewerId: string;
  targetId: string;
  /** The id and time of the match, should this like make it. */
  matchId: string;
  at: Date;
  likeEvent: SwipeFact;
  matchEvent: SwipeFact;
}

/** The answer of PASS_SQL. */
export interface PassRow {
  /** Matching knows the passed member. */
  known: boolean;
  /** Either member blocks the other. */
  blocked: boolean;
  /** The passed member is suspended. */
  suspended: boolean;
}

/** A like of the pair that was already there, read after the commit that met it. */
export interface StandingLikeRow {
  liked: boolean;
  match_id: string | null;
  matched_at: Date | null;
  pair_version: number;
}

/**
 * A pass in one statement, under the pair's lock as the like: it locks the target's row against
 * their erasure (as LIKE_SQL does) and inserts the pass and its pass.created row only for a known,
 * unsuspended target outside a blocked pair.
 * Parameters: $1 passer, $2 passed, $3 and $4 the outbox id and envelope of pass.created.
 */
const PASS_SQL = `WITH target AS (SELECT suspended FROM candidate WHERE user_id = $2::uuid FOR KEY SHARE), blocked AS (
                 SELECT 1 WHERE ${pairBlockedSql('$1::uuid', '$2::uuid')}
               ), inserted AS (
                 INSERT INTO swipe (swiper_id, target_id, liked) SELECT $1::uuid, $2::uuid, false FROM target
                 WHERE NOT target.suspended AND NOT EXISTS (SELECT 1 FROM blocked)
                 ON CONFLICT (swiper_id, target_id) DO NOTHING
                 RETURNING swiper_id), pass_fact AS (
                 SELECT $3::uuid AS id, 'pass.created' AS name, $4::jsonb AS body FROM inserted
               ), pass_event AS (${insertOutboxFacts('pass_fact')})
               SELECT EXISTS (SELECT 1 FROM target) AS known, EXISTS (SELECT 1 FROM blocked) AS blocked,
                 coalesce((SELECT suspended FROM target), false) AS suspended`;

/** Deletes the member's latest pass on someone who still fits both ways ($1 the member). */
// A SELECT around the DELETE, so the driver answers the rows (not a DELETE's row count).
const REWIND_LATEST_PASS = `WITH rewound AS (
         DELETE FROM swipe WHERE swiper_id = $1 AND NOT liked AND target_id = (
           SELECT s.target_id FROM swipe s
             JOIN candidate v ON v.user_id = s.swiper_id
             JOIN candidate c ON c.user_id = s.target_id
           WHERE s.swiper_id = $1 AND NOT s.liked AND ${mutualRulesSql('v', 'c')}
           ORDER BY s.created_at DESC LIMIT 1)
         RETURNING target_id)
       SELECT target_id FROM rewound`;

/** The swipe $1 → $2 and the pair's match ($3 < $4), with the pair's applied version ($5 its id). */
const SWIPE_WITH_MATCH = `SELECT s.liked, m.id AS match_id, m.created_at AS matched_at,
              coalesce((SELECT version FROM applied_version WHERE aggregate_type = 'pair' AND aggregate_id = $5), 0)::int AS pair_version
       FROM swipe s LEFT JOIN match m ON m.user_a = $3 AND m.user_b = $4
       WHERE s.swiper_id = $1 AND s.target_id = $2`;

const SWIPES_BY = 'SELECT target_id, liked, created_at FROM swipe WHERE swiper_id = $1 ORDER BY created_at, target_id';

const LIKES_RECEIVED_COUNT = 'SELECT count(*)::int AS n FROM swipe WHERE target_id = $1 AND liked';

/** The pair's likes and passes both ways; $1 and $2 the pair in either order. */
const FORGET_PAIR_SWIPES = `DELETE FROM swipe WHERE (swiper_id = $1 AND target_id = $2) OR (swiper_id = $2 AND target_id = $1)`;

/** The likes and passes the member gave and received; answers how many went. */
const ERASE_MEMBER_SWIPES =
  'WITH gone AS (DELETE FROM swipe WHERE swiper_id = $1 OR target_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone';

/**
 * The `swipe` table (and the match a like makes). A like and a pass are each one statement run
 * under the pair's lock in one round trip (onceUnderPairLock): a refused swipe writes nothing, so
 * the transaction may commit before the caller reads the answer.
 */
@Injectable()
export class SwipesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** LIKE_SQL under the pair's lock: the like, the match it makes and their outbox rows, or nothing. */
  async recordLike(like: LikeInput): Promise<LikeRow> {
    const { viewerId, targetId, matchId, at, likeEvent, matchEvent } = like;
    const [a, b] = orderedPairOf(viewerId, targetId);
    const [answer] = await onceUnderPairLock<LikeRow>(this.dataSource, viewerId, targetId, {
      name: 'pair_like',
      text: LIKE_SQL,
      values: [viewerId, targetId, a, b, matchId, at, likeEvent.id, likeEvent.body, matchEvent.id, matchEvent.body, pairIdOf(a, b)],
    });
    return answer;
  }

  /** PASS_SQL under the pair's lock: the pass and its pass.created row, or nothing. */
  async recordPass(viewerId: string, targetId: string, passEvent: SwipeFact): Promise<PassRow> {
    const [passed] = await onceUnderPairLock<PassRow>(this.dataSource, viewerId, targetId, {
      name: 'pair_pass',
      text: PASS_SQL,
      values: [viewerId, targetId, passEvent.id, passEvent.body],
    });
    return passed;
  }

  /** Deletes the member's latest pass on someone who still fits; answers whom, or null. */
  async rewindLatestPass(viewerId: string): Promise<string | null> {
    const rows: { target_id: string }[] = await this.dataSource.query(REWIND_LATEST_PASS, [viewerId]);
    return rows[0]?.target_id ?? null;
  }

  /** Every like and pass the member made, oldest first (their data export). */
  swipesBy(userId: string): Promise<{ target_id: string; liked: boolean; created_at: Date }[]> {
    return this.dataSource.query(SWIPES_BY, [userId]);
  }

  /** How many likes the member received, from anyone (their data export: not who). */
  async likesReceivedCount(userId: string): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>(LIKES_RECEIVED_COUNT, [userId]);
    return row.n;
  }

  /** The viewer's swipe on the target and the pair's match as they stand now, or null without a swipe. */
  async standingSwipe(viewerId: string, targetId: string): Promise<StandingLikeRow | null> {
    const [a, b] = orderedPairOf(viewerId, targetId);
    const rows: StandingLikeRow[] = await this.dataSource.query(SWIPE_WITH_MATCH, [viewerId, targetId, a, b, pairIdOf(a, b)]);
    return rows[0] ?? null;
  }

  /** Deletes the pair's likes and passes both ways, in the caller's transaction (an unblock). */
  async forgetPairSwipes(manager: EntityManager, userA: string, userB: string): Promise<void> {
    await manager.query(FORGET_PAIR_SWIPES, [userA, userB]);
  }

  /** Deletes every like and pass the member gave or received (their erasure); answers how many went. */
  async eraseMember(manager: EntityManager, userId: string): Promise<number> {
    const [{ n }] = await manager.query<{ n: number }[]>(ERASE_MEMBER_SWIPES, [userId]);
    return n;
  }
}

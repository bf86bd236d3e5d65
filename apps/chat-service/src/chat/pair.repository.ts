import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { liveKitMatchSql, type ProjectedMatch } from '@mate/server-kit';

/*
 * Safety (issue 10): what chat knows of a pair from safety's pair events (the kit's pair
 * projection, `kit_pair` and `kit_ended_match`: docs/adr/0030-pair-and-suspension-projection.md)
 * decides whether the pair's conversation is open. A match is live when neither
 * member blocks the other, no pair event named it ended, and no pair event newer than the match
 * was applied (every pair event means "the pair has no match now"): the match's `pairVersion`
 * (the pair version matching had applied when it made it) is at least the newest pair version
 * chat applied. Versions, not clocks; only a match.created written before versions (no
 * pairVersion) falls back to comparing its time with the newest pair event's. The conversation is
 * open exactly while its match is live. match.created takes the pair's lock first (PAIR_LOCK_SQL)
 * and a pair event takes it after the kit wrote the pair's state, before settling the conversation,
 * so each settles after the other's commit, whatever order they arrive in.
 */

/** The pair's transaction-scoped lock. $1 member_a, $2 member_b. */
const PAIR_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('chat_pair:' || $1::text || ':' || $2::text, 0))`;

/**
 * Whether a match `m` of pair (member_a, member_b) made under pair version `pv` (null: an event from
 * before versions) at `at` is live, as a SQL expression (the kit's liveKitMatchSql, the rule call
 * applies too). `pair` is the pair's kit_pair row (a LEFT JOIN: no row, no pair event yet).
 */
const liveMatch = (m: string, at: string, pv: string) => liveKitMatchSql(m, at, pv);

/**
 * What a reopening does to a conversation: members see only what follows (history_from_seq), the
 * list shows no last message and no unread, read positions start at the current seq. Seqs keep
 * growing; the hidden messages stay (moderators read them through the pair snapshot).
 */
const REOPENED = `
  history_from_seq = c.last_seq, last_message_id = NULL, last_message_at = NULL,
  a_read_seq = c.last_seq, b_read_seq = c.last_seq, a_unread = 0, b_unread = 0`;

/**
 * After a pair event: closes the pair's conversation when its match is no longer live (history
 * kept), or opens it (history before hidden) when a match that arrived while the pair was blocked
 * is live now (the unblock that preceded it arrived late). Answers `open` for a row it changed.
 * $1 member_a, $2 member_b.
 */
const SETTLE_PAIR_SQL = `
UPDATE conversation c
   SET closed_at = CASE WHEN c.closed_at IS NULL THEN now() ELSE NULL END,
       history_from_seq = CASE WHEN c.closed_at IS NULL THEN c.history_from_seq ELSE c.last_seq END,
       last_message_id = CASE WHEN c.closed_at IS NULL THEN c.last_message_id ELSE NULL END,
       last_message_at = CASE WHEN c.closed_at IS NULL THEN c.last_message_at ELSE NULL END,
       a_read_seq = CASE WHEN c.closed_at IS NULL THEN c.a_read_seq ELSE c.last_seq END,
       b_read_seq = CASE WHEN c.closed_at IS NULL THEN c.b_read_seq ELSE c.last_seq END,
       a_unread = CASE WHEN c.closed_at IS NULL THEN c.a_unread ELSE 0 END,
       b_unread = CASE WHEN c.closed_at IS NULL THEN c.b_unread ELSE 0 END
  FROM (SELECT $1::uuid AS a, $2::uuid AS b) k
  LEFT JOIN kit_pair pair ON pair.member_a = k.a AND pair.member_b = k.b
 WHERE c.member_a = k.a AND c.member_b = k.b
   AND (c.closed_at IS NULL) <> ${liveMatch('c.match_id', 'c.matched_at', 'c.match_pair_version')}
RETURNING c.closed_at IS NULL AS open`;

/**
 * match.created: opens the pair's conversation (its id is the first match's id) when the match is
 * live, or records it closed (a blocked pair, an ended match, a match older than the newest pair
 * event). A newer match (another id, made under a higher pair version; by time only when either
 * lacks a version) replaces the row's match: open when live, with the history before it hidden.
 * The same match again, or an older one, changes nothing. $1 match id, $2 member_a, $3 member_b,
 * $4 created at, $5 its pair version (null: an event from before versions). Answers `open` for a
 * row it wrote.
 */
const OPEN_MATCH_SQL = `
INSERT INTO conversation AS c (id, member_a, member_b, match_id, matched_at, match_pair_version, closed_at)
SELECT $1::uuid, $2::uuid, $3::uuid, $1::uuid, $4::timestamptz, $5::int,
       CASE WHEN ${liveMatch('$1::uuid', '$4::timestamptz', '$5::int')} THEN NULL ELSE now() END
  FROM (SELECT $2::uuid AS a, $3::uuid AS b) k
  LEFT JOIN kit_pair pair ON pair.member_a = k.a AND pair.member_b = k.b
ON CONFLICT (member_a, member_b) DO UPDATE
   SET match_id = EXCLUDED.match_id, matched_at = EXCLUDED.matched_at, match_pair_version = EXCLUDED.match_pair_version,
       closed_at = EXCLUDED.closed_at, ${REOPENED}
 WHERE c.match_id <> EXCLUDED.match_id
   AND CASE WHEN c.match_pair_version IS NOT NULL AND EXCLUDED.match_pair_version IS NOT NULL
              AND c.match_pair_version <> EXCLUDED.match_pair_version
            THEN c.match_pair_version < EXCLUDED.match_pair_version
            ELSE c.matched_at < EXCLUDED.matched_at END
RETURNING c.closed_at IS NULL AS open`;

/**
 * Erasure: the member's old pair states. `chat_pair` is read by nobody since PairsInKitProjection;
 * its rows go until a later deploy drops it (the kit forgets the member's kit_pair and
 * kit_ended_match rows).
 */
const FORGET_PAIRS_OF_SQL = 'DELETE FROM chat_pair WHERE member_a = $1::uuid OR member_b = $1::uuid';

/**
 * What chat decides from matching's and safety's events (the kit's pair projection): whether the
 * pair's conversation is open (the rule above, liveMatch). Every write of a conversation takes the
 * pair's lock first, in the caller's transaction.
 */
@Injectable()
export class PairRepository {
  /**
   * OPEN_MATCH_SQL under the pair's lock: opens (or records closed) the pair's conversation for
   * the match. Answers whether the row it wrote is open, or null when it changed nothing.
   */
  async recordMatch(manager: EntityManager, match: ProjectedMatch): Promise<boolean | null> {
    const { matchId, a, b } = match;
    await manager.query(PAIR_LOCK_SQL, [a, b]);
    const written: { open: boolean }[] = await manager.query(OPEN_MATCH_SQL, [
      matchId,
      a,
      b,
      match.matchedAt,
      match.pairVersion,
    ]);
    return written.length > 0 ? written[0].open : null;
  }

  /**
   * After the kit wrote a pair event's state (and the match it ended), under the pair's lock:
   * SETTLE_PAIR_SQL. Answers whether the pair's conversation is open now when it changed, else false.
   */
  async settlePair(manager: EntityManager, a: string, b: string): Promise<boolean> {
    await manager.query(PAIR_LOCK_SQL, [a, b]);
    const [settled]: { open: boolean }[][] = await manager.query(SETTLE_PAIR_SQL, [a, b]);
    return settled?.[0]?.open ?? false;
  }

  /** Erasure: the member's old pair states. */
  async forgetMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_PAIRS_OF_SQL, [userId]);
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ProjectedMatch, ProjectedPairEvent } from '@mate/server-kit';

/*
 * What call-service knows of a pair from matching's and safety's events (call_match, call_pair,
 * call_ended_match); CallRepository's liveMatch reads it. A pair is stored member_a < member_b.
 */

/** Serializes a pair's projection writes. $1 member_a, $2 member_b. */
const PAIR_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('call-pair:' || $1::text || ':' || $2::text, 0))`;

/** match.created. $1 match id, $2 member_a, $3 member_b, $4 matched at, $5 pair version (or null). */
const RECORD_MATCH_SQL = `
INSERT INTO call_match (match_id, member_a, member_b, matched_at, pair_version)
VALUES ($1::uuid, $2::uuid, $3::uuid, $4::timestamptz, $5::int) ON CONFLICT (match_id) DO NOTHING`;

/** A pair event: the whole block state, its time and version. $1 a, $2 b, $3 blocked, $4 time, $5 version. */
export const PAIR_STATE_SQL = `
INSERT INTO call_pair (member_a, member_b, blocked, ended_before, version)
VALUES ($1::uuid, $2::uuid, $3::boolean, $4::timestamptz, $5::int)
ON CONFLICT (member_a, member_b) DO UPDATE
  SET blocked = EXCLUDED.blocked, ended_before = greatest(call_pair.ended_before, EXCLUDED.ended_before),
      version = greatest(call_pair.version, EXCLUDED.version), updated_at = now()`;

/** A match a pair event named as ended. $1 match id. Exported, as PAIR_STATE_SQL, for the seeder's spec. */
export const ENDED_MATCH_SQL = `INSERT INTO call_ended_match (match_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING`;

/** Erasure: the member's matches, the ended marks of those matches, and their pair states. $1 member. */
const FORGET_ENDED_MATCHES_OF_SQL = `
DELETE FROM call_ended_match WHERE match_id IN (SELECT match_id FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid)`;
const FORGET_MATCHES_OF_SQL = 'DELETE FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid';
const FORGET_PAIRS_OF_SQL = 'DELETE FROM call_pair WHERE member_a = $1::uuid OR member_b = $1::uuid';

/** The pair projections; every write takes the pair's lock first, in the caller's transaction. */
@Injectable()
export class PairRepository {
  /** RECORD_MATCH_SQL under the pair's lock (a match already recorded changes nothing). */
  async recordMatch(manager: EntityManager, match: ProjectedMatch): Promise<void> {
    const { a, b } = match;
    await manager.query(PAIR_LOCK_SQL, [a, b]);
    await manager.query(RECORD_MATCH_SQL, [match.matchId, a, b, match.matchedAt, match.pairVersion]);
  }

  /** Under the pair's lock: the pair event's state (PAIR_STATE_SQL) and the match it ended. */
  async applyPairEvent(manager: EntityManager, event: ProjectedPairEvent): Promise<void> {
    const { a, b } = event;
    await manager.query(PAIR_LOCK_SQL, [a, b]);
    await manager.query(PAIR_STATE_SQL, [a, b, event.blocked, event.at, event.version]);
    if (event.endedMatchId) await manager.query(ENDED_MATCH_SQL, [event.endedMatchId]);
  }

  /** Erasure: the member's matches, their ended marks and the member's pair states. */
  async forgetMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_ENDED_MATCHES_OF_SQL, [userId]);
    await manager.query(FORGET_MATCHES_OF_SQL, [userId]);
    await manager.query(FORGET_PAIRS_OF_SQL, [userId]);
  }
}

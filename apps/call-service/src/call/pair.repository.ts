import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ProjectedMatch } from '@mate/server-kit';

/*
 * What call-service knows of a pair from matching's events (call_match); the pair's safety state
 * (user.blocked, user.unblocked, match.ended) is the kit's pair projection (kit_pair,
 * kit_ended_match; docs/adr/0030-pair-and-suspension-projection.md). CallRepository's liveMatch
 * reads both. A pair is stored member_a < member_b.
 */

/** Serializes a pair's match and pair events in call-service. $1 member_a, $2 member_b. */
const PAIR_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('call-pair:' || $1::text || ':' || $2::text, 0))`;

/** match.created. $1 match id, $2 member_a, $3 member_b, $4 matched at, $5 pair version (or null). */
const RECORD_MATCH_SQL = `
INSERT INTO call_match (match_id, member_a, member_b, matched_at, pair_version)
VALUES ($1::uuid, $2::uuid, $3::uuid, $4::timestamptz, $5::int) ON CONFLICT (match_id) DO NOTHING`;

/**
 * Erasure: the ended marks of the member's matches, the member's matches, and their old pair states.
 * $1 member. The kit forgets the member's kit_pair and kit_ended_match rows by their pair; an ended
 * mark copied from call_ended_match (which never kept the pair) or recorded by the previous release
 * during the roll has none, so call's matches find it. `call_pair` is read by nobody since
 * PairsInKitProjection; its rows go until a later deploy drops it.
 */
const FORGET_ENDED_MATCHES_OF_SQL = `
DELETE FROM kit_ended_match WHERE match_id IN (SELECT match_id FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid)`;
const FORGET_MATCHES_OF_SQL = 'DELETE FROM call_match WHERE member_a = $1::uuid OR member_b = $1::uuid';
const FORGET_PAIRS_OF_SQL = 'DELETE FROM call_pair WHERE member_a = $1::uuid OR member_b = $1::uuid';

/** The pair's matches and lock; every write takes the pair's lock first, in the caller's transaction. */
@Injectable()
export class PairRepository {
  /** RECORD_MATCH_SQL under the pair's lock (a match already recorded changes nothing). */
  async recordMatch(manager: EntityManager, match: ProjectedMatch): Promise<void> {
    const { a, b } = match;
    await manager.query(PAIR_LOCK_SQL, [a, b]);
    await manager.query(RECORD_MATCH_SQL, [match.matchId, a, b, match.matchedAt, match.pairVersion]);
  }

  /** The pair's lock (a < b), for a pair event's own part after the kit wrote its state. */
  async lockPair(manager: EntityManager, a: string, b: string): Promise<void> {
    await manager.query(PAIR_LOCK_SQL, [a, b]);
  }

  /** Erasure: the member's matches, their ended marks and the member's old pair states. */
  async forgetMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_ENDED_MATCHES_OF_SQL, [userId]);
    await manager.query(FORGET_MATCHES_OF_SQL, [userId]);
    await manager.query(FORGET_PAIRS_OF_SQL, [userId]);
  }
}

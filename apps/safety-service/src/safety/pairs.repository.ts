import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { orderedPairOf, pairIdOf, type PairState } from '@mate/contracts';

/** A pair row as the rules read it, under its lock. */
export interface PairRow {
  pairId: string;
  userIds: [string, string];
  blockedBy: string[];
  matchId: string | null;
  endedMatchId: string | null;
  /** Each member as the other could last see them, taken when the pair became blocked (null while neither blocks). */
  shown: ShownMembers | null;
}

/** A member's name and photo as the pair's other member last saw them, by member id. */
export type ShownMembers = Record<string, { name: string | null; photo: string | null } | null>;

interface PairRecord {
  pair_id: string;
  member_a: string;
  member_b: string;
  blocked_by: string[];
  match_id: string | null;
  ended_match_id: string | null;
  shown: ShownMembers | null;
}

const COLUMNS = 'pair_id, member_a, member_b, blocked_by, match_id, ended_match_id, shown';

const LOCK_PAIRS_OF_MEMBER = 'SELECT 1 FROM pair WHERE member_a = $1::uuid OR member_b = $1::uuid ORDER BY pair_id FOR UPDATE';

const ERASE_PAIRS_OF_MEMBER = 'DELETE FROM pair WHERE member_a = $1::uuid OR member_b = $1::uuid';

const UNMATCHES_MADE_BY = `SELECT CASE WHEN member_a = $1::uuid THEN member_b ELSE member_a END AS other_id, unmatched_at
           FROM pair WHERE unmatched_by = $1::uuid AND (member_a = $1::uuid OR member_b = $1::uuid)
          ORDER BY unmatched_at DESC, pair_id`;

const toRow = (r: PairRecord): PairRow => ({
  pairId: r.pair_id,
  userIds: [r.member_a, r.member_b],
  blockedBy: r.blocked_by,
  matchId: r.match_id,
  endedMatchId: r.ended_match_id,
  shown: r.shown,
});

/** The pair state a pair event carries whole. */
export const pairState = (pair: PairRow, blockedBy: string[]): PairState => ({
  pairId: pair.pairId,
  userIds: pair.userIds,
  blockedBy,
});

/** `blockedBy` with `memberId` added or removed, ascending, each member once. */
export function withBlocker(blockedBy: string[], memberId: string, blocks: boolean): string[] {
  const set = new Set(blockedBy);
  if (blocks) set.add(memberId);
  else set.delete(memberId);
  return [...set].sort();
}

/**
 * The `pair` table: every rule about two members (block, unblock, unmatch, report, a match that
 * arrives) takes the pair's row lock first, so the state a pair event carries is read and written
 * in commit order, and the outbox numbers the events of the pair in that order too.
 */
@Injectable()
export class PairsRepository {
  /** The pair's row, created when missing, locked until the transaction ends (one statement). */
  async lock(manager: EntityManager, x: string, y: string): Promise<PairRow> {
    const [a, b] = orderedPairOf(x, y);
    const rows: PairRecord[] = await manager.query(
      `INSERT INTO pair (pair_id, member_a, member_b) VALUES ($1, $2, $3)
       ON CONFLICT (pair_id) DO UPDATE SET pair_id = EXCLUDED.pair_id
       RETURNING ${COLUMNS}`,
      [pairIdOf(a, b), a, b],
    );
    return toRow(rows[0]);
  }

  /** The pair's row locked, or null when safety never saw the pair (nothing is created). */
  async lockExisting(manager: EntityManager, x: string, y: string): Promise<PairRow | null> {
    const rows: PairRecord[] = await manager.query(`SELECT ${COLUMNS} FROM pair WHERE pair_id = $1 FOR UPDATE`, [pairIdOf(x, y)]);
    return rows.length ? toRow(rows[0]) : null;
  }

  /**
   * A block or an unblock: the new block state; a block also ends the current match. `shown` is
   * kept while either member blocks the other and cleared when neither does.
   */
  async setBlockedBy(
    manager: EntityManager,
    pair: PairRow,
    blockedBy: string[],
    endsMatch: boolean,
    at: Date,
    shown: ShownMembers | null,
  ): Promise<void> {
    const kept = blockedBy.length > 0 ? shown : null;
    await manager.query(
      endsMatch
        ? `UPDATE pair SET blocked_by = $2::uuid[], shown = $3::jsonb, ended_match_id = coalesce(match_id, ended_match_id), match_id = NULL,
             matched_at = NULL, ended_at = $4, updated_at = now() WHERE pair_id = $1`
        : 'UPDATE pair SET blocked_by = $2::uuid[], shown = $3::jsonb, updated_at = now() WHERE pair_id = $1',
      endsMatch ? [pair.pairId, blockedBy, kept, at] : [pair.pairId, blockedBy, kept],
    );
  }

  /** The pair's current version (its newest pair event; 0 before any), read under the pair's lock. */
  async version(manager: EntityManager, pair: PairRow): Promise<number> {
    const rows: { version: string }[] = await manager.query(
      "SELECT version FROM aggregate_version WHERE aggregate_type = 'pair' AND aggregate_id = $1",
      [pair.pairId],
    );
    return rows.length ? Number(rows[0].version) : 0;
  }

  /** The unmatches the member made, newest first (their data export). */
  unmatchesMadeBy(manager: EntityManager, userId: string): Promise<{ other_id: string; unmatched_at: Date }[]> {
    return manager.query(UNMATCHES_MADE_BY, [userId]);
  }

  /** An unmatch by `memberId`: the current match ends. */
  async endMatch(manager: EntityManager, pair: PairRow, memberId: string, at: Date): Promise<void> {
    await manager.query(
      `UPDATE pair SET ended_match_id = match_id, match_id = NULL, matched_at = NULL, ended_at = $2,
              unmatched_by = $3, unmatched_at = $2, updated_at = now()
       WHERE pair_id = $1`,
      [pair.pairId, at, memberId],
    );
  }

  /**
   * match.created: the pair's current match. Not when the pair is blocked, nor for the match that
   * ended, nor for a match made before the pair's newest pair event: its `pairVersion` (the pair
   * version matching had applied when it made the match) must be at least the pair's version here
   * (ADR 0014: versions, never two services' clocks). An event without `pairVersion` (written
   * before versions) falls back to times: made after the last block or unmatch, not older than the
   * current match. A late or repeated event resurrects nothing.
   *
   * The pair's row is locked first, by its own statement: every pair event is published under that
   * lock, so the version read by the next statement includes every committed one.
   */
  async recordMatch(
    manager: EntityManager,
    x: string,
    y: string,
    matchId: string,
    matchedAt: Date,
    pairVersion: number | null,
  ): Promise<void> {
    const [a, b] = orderedPairOf(x, y);
    const pairId = pairIdOf(a, b);
    await manager.query('SELECT 1 FROM pair WHERE pair_id = $1 FOR UPDATE', [pairId]);
    await manager.query(
      `INSERT INTO pair (pair_id, member_a, member_b, match_id, matched_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (pair_id) DO UPDATE SET match_id = EXCLUDED.match_id, matched_at = EXCLUDED.matched_at, updated_at = now()
        WHERE cardinality(pair.blocked_by) = 0
          AND pair.ended_match_id IS DISTINCT FROM EXCLUDED.match_id
          AND CASE WHEN $6::int IS NOT NULL
                   THEN $6::int >= coalesce((SELECT version FROM aggregate_version WHERE aggregate_type = 'pair' AND aggregate_id = $1), 0)
                   ELSE (pair.ended_at IS NULL OR pair.ended_at < EXCLUDED.matched_at)
                        AND (pair.matched_at IS NULL OR pair.matched_at <= EXCLUDED.matched_at) END`,
      [pairId, a, b, matchId, matchedAt, pairVersion],
    );
  }

  /**
   * Locks every pair row of the member, in pair order (their erasure): a block, unblock, unmatch
   * or report in flight, which takes its pair's row lock first, finishes before.
   */
  async lockAllOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(LOCK_PAIRS_OF_MEMBER, [userId]);
  }

  /** Deletes every pair row of the member (their erasure). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_PAIRS_OF_MEMBER, [userId]);
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type MigrationInterface, type QueryRunner } from 'typeorm';
import type { EventEnvelope, MatchEndedPayload, UserBlockedPayload, UserUnblockedPayload } from '@mate/contracts';
import { projectedPairEventOf, type PairEventName } from '../events/pair-projection';

/*
 * A pair's safety state as every consuming service projects it (docs/adr/0030-pair-and-suspension-
 * projection.md): one `kit_pair` row per pair a pair event named (member_a < member_b), from
 * user.blocked, user.unblocked and match.ended. Each carries the pair's whole block state
 * (`blockedBy`) and the kit's consumer applies only the newest version of a pair, so each writes
 * it whole; the row stays once neither blocks (its version and `ended_before` still order what
 * comes later). A service turns it on with `projections: ['pair']` (ServiceModule). The matches the events
 * named as ended are kept in `kit_ended_match`.
 */

/** The kit's pair table. A projection migration: only services that turn it on run it. */
export class PairStateProjection1796402000000 implements MigrationInterface {
  name = 'PairStateProjection1796402000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS kit_pair (
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      blocked_by uuid[] NOT NULL DEFAULT '{}',
      ended_before timestamptz NULL,
      version int NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (member_a, member_b),
      CONSTRAINT kit_pair_order_check CHECK (member_a < member_b)
    )`);
    // The erasure finds a member's pairs on either side.
    await q.query('CREATE INDEX IF NOT EXISTS kit_pair_member_b_idx ON kit_pair (member_b)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS kit_pair');
  }
}

/**
 * The matches a pair event named as ended (user.blocked's endedMatchId, match.ended's matchId), so
 * a match.created arriving after (late, or again) stays ended: liveKitMatchSql reads it. The pair is
 * kept so the erasure finds a member's rows; it is null only for a row a service copied from a
 * table that never kept it (call's `call_ended_match`).
 */
export class EndedMatchProjection1796403000000 implements MigrationInterface {
  name = 'EndedMatchProjection1796403000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS kit_ended_match (
      match_id uuid PRIMARY KEY,
      member_a uuid NULL,
      member_b uuid NULL
    )`);
    await q.query('CREATE INDEX IF NOT EXISTS kit_ended_match_member_a_idx ON kit_ended_match (member_a)');
    await q.query('CREATE INDEX IF NOT EXISTS kit_ended_match_member_b_idx ON kit_ended_match (member_b)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS kit_ended_match');
  }
}

/**
 * A pair event: its whole block state, its time (the newest ends matches before it) and version.
 * $1 member_a, $2 member_b, $3 blocked_by, $4 the event's time, $5 its pair version (or null).
 * Exported, as ENDED_MATCH_SQL, for the seeder's spec, which writes pair states as the kit does.
 */
export const PAIR_EVENT_SQL = `INSERT INTO kit_pair (member_a, member_b, blocked_by, ended_before, version)
VALUES ($1::uuid, $2::uuid, $3::uuid[], $4::timestamptz, $5::int)
ON CONFLICT (member_a, member_b) DO UPDATE
  SET blocked_by = EXCLUDED.blocked_by, ended_before = greatest(kit_pair.ended_before, EXCLUDED.ended_before),
      version = greatest(kit_pair.version, EXCLUDED.version), updated_at = now()`;
/** A match a pair event named as ended. $1 match id, $2 member_a, $3 member_b. */
export const ENDED_MATCH_SQL = `INSERT INTO kit_ended_match (match_id, member_a, member_b)
VALUES ($1::uuid, $2::uuid, $3::uuid) ON CONFLICT (match_id) DO NOTHING`;
const FORGET_PAIRS_OF = 'DELETE FROM kit_pair WHERE member_a = $1::uuid OR member_b = $1::uuid';
const FORGET_ENDED_MATCHES_OF = 'DELETE FROM kit_ended_match WHERE member_a = $1::uuid OR member_b = $1::uuid';
const PAIR_OF = `SELECT cardinality(blocked_by) > 0 AS blocked, version FROM kit_pair
WHERE member_a = least($1::uuid, $2::uuid) AND member_b = greatest($1::uuid, $2::uuid)`;

/**
 * Whether either of the members `x` and `y` (SQL uuid expressions) blocks the other, as a boolean
 * SQL expression, for a service's statement that reads the block among other things.
 */
export function pairBlockedSql(x: string, y: string): string {
  return `EXISTS (SELECT 1 FROM kit_pair WHERE member_a = least(${x}, ${y}) AND member_b = greatest(${x}, ${y})
    AND cardinality(blocked_by) > 0)`;
}

/**
 * Whether a match is live, as a SQL expression, the rule chat and call apply alike: neither member
 * blocks the other, no pair event named it ended, and no pair event newer than the one it was made
 * under was applied. Versions, not clocks: the match's pair version (`pairVersion`, the version
 * matching had applied when it made it) is at least the newest the projection applied; only a match
 * from before versions (null) falls back to comparing its time (`at`) with the newest pair event's.
 *
 * `pair` is the pair's `kit_pair` row in the service's statement (a LEFT JOIN: no row, no pair
 * event yet); `match` the match's id, looked up in `kit_ended_match`.
 */
export function liveKitMatchSql(match: string, at: string, pairVersion: string): string {
  return `(NOT coalesce(cardinality(pair.blocked_by) > 0, false)
    AND NOT EXISTS (SELECT 1 FROM kit_ended_match e WHERE e.match_id = ${match})
    AND CASE WHEN ${pairVersion} IS NOT NULL AND (pair.version IS NOT NULL OR pair.ended_before IS NULL)
             THEN ${pairVersion} >= coalesce(pair.version, 0)
             ELSE (pair.ended_before IS NULL OR ${at} > pair.ended_before) END)`;
}

type Queryable = Pick<EntityManager, 'query'>;

/** The pair projection's statements: its handlers' writes and the service's reads. */
@Injectable()
export class PairStates {
  constructor(private readonly dataSource: DataSource) {}

  /** A pair event as the consumer read it (the pair ascending, `blockedBy` of the two only). */
  async apply<N extends PairEventName>(
    manager: EntityManager,
    name: N,
    payload: UserBlockedPayload | UserUnblockedPayload | MatchEndedPayload,
    envelope: Pick<EventEnvelope<N>, 'aggregateVersion'>,
  ): Promise<void> {
    const event = projectedPairEventOf(name, payload, envelope);
    await manager.query(PAIR_EVENT_SQL, [event.a, event.b, payload.blockedBy, event.at, event.version]);
    if (event.endedMatchId) await manager.query(ENDED_MATCH_SQL, [event.endedMatchId, event.a, event.b]);
  }

  /** user.deleted: every pair naming the erased member goes (in the erasure's transaction). */
  async forget(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(FORGET_PAIRS_OF, [userId]);
    await manager.query(FORGET_ENDED_MATCHES_OF, [userId]);
  }

  /** Whether either of the two blocks the other (ids in any case, either order). */
  async isBlocked(x: string, y: string, q: Queryable = this.dataSource): Promise<boolean> {
    const [row] = await this.pairOf(x, y, q);
    return row?.blocked === true;
  }

  /** The version of the newest pair event applied for the pair, 0 when none. */
  async pairVersion(x: string, y: string, q: Queryable = this.dataSource): Promise<number> {
    const [row] = await this.pairOf(x, y, q);
    return row?.version ?? 0;
  }

  private pairOf(x: string, y: string, q: Queryable): Promise<{ blocked: boolean; version: number | null }[]> {
    return q.query(PAIR_OF, [x, y]);
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DELETED_MEMBER_NAME } from '@mate/contracts';
import { liveKitMatchSql, memberSuspendedSql, ReadReplica } from '@mate/server-kit';

/*
 * call_record and the rule of who may call. Ids are compared lower-cased; a pair is stored
 * member_a < member_b (the projections, pair.repository.ts and member.repository.ts).
 */

/**
 * A match is live when neither member blocks the other, no pair event named it as ended, and no
 * pair event newer than the one it was made under was applied: the kit's rule over its pair
 * projection (liveKitMatchSql: kit_pair as `pair`, kit_ended_match), the rule chat applies too.
 */
const liveMatch = (m: string, at: string, pv: string) => liveKitMatchSql(m, at, pv);

/** Whether a call record's caller or recipient is suspended now (the kit's suspension projection). */
const CALLER_SUSPENDED = memberSuspendedSql('r.caller_id');
const RECIPIENT_SUSPENDED = memberSuspendedSql('r.recipient_id');

/**
 * Whether the pair may call: one of its matches is live and neither member is suspended (issue 13),
 * and the match was made under a pair version at least the pair gate's closing version (ADR 0024;
 * 0 when the gate is open or unset). $1 member_a, $2 member_b, $3 the gate's closing version.
 */
const PAIR_CALLABLE_SQL = `
SELECT EXISTS (
  SELECT 1 FROM call_match m
  LEFT JOIN kit_pair pair ON pair.member_a = m.member_a AND pair.member_b = m.member_b
  WHERE m.member_a = $1::uuid AND m.member_b = $2::uuid AND ${liveMatch('m.match_id', 'm.matched_at', 'm.pair_version')}
    AND coalesce(m.pair_version, 0) >= $3::int
) AND NOT ${memberSuspendedSql('$1::uuid')} AND NOT ${memberSuspendedSql('$2::uuid')} AS callable`;

/** Serializes everything that decides a member's active call (both members, in id order). */
const MEMBER_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('call:' || $1::text, 0)),
                                      pg_advisory_xact_lock(hashtextextended('call:' || $2::text, 0))`;

/** The active calls of either member. $1, $2 member ids. */
const ACTIVE_OF_SQL = `
SELECT id FROM call_record
WHERE status = 'in_progress' AND (caller_id IN ($1::uuid, $2::uuid) OR recipient_id IN ($1::uuid, $2::uuid))`;

/**
 * Whether this caller's busy attempt on this callee is already recorded for the calls that keep
 * them busy now: a failed call from $1 to $2 since the oldest of those active calls started
 * (issue 24 item 7: one entry per caller while the callee stays in their call, not one per
 * retry). $1 caller, $2 callee.
 */
const BUSY_RECORDED_SQL = `
SELECT EXISTS (
  SELECT 1 FROM call_record r
  WHERE r.caller_id = $1::uuid AND r.recipient_id = $2::uuid AND r.status = 'failed'
    AND r.started_at >= (
      SELECT min(a.started_at) FROM call_record a
      WHERE a.status = 'in_progress'
        AND (a.caller_id IN ($1::uuid, $2::uuid) OR a.recipient_id IN ($1::uuid, $2::uuid)))
) AS recorded`;

/** A new call (a busy attempt is recorded already final). $1 id, $2 caller, $3 recipient, $4 status, $5 started at (server). */
const INSERT_CALL_SQL = `
INSERT INTO call_record (id, caller_id, recipient_id, status, started_at, ended_at, duration_seconds)
VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::timestamptz,
        CASE WHEN $4 = 'in_progress' THEN NULL ELSE $5::timestamptz END,
        CASE WHEN $4 = 'in_progress' THEN NULL ELSE 0 END)`;

/** What every transition to a final status answers (EndedRow): call:ended pushes and call.ended facts. */
const ENDED_COLUMNS = 'id, caller_id, recipient_id, status, ended_at, duration_seconds';

/** Whole seconds between the answer and the end ($E), 0 when never answered. */
const duration = (end: string) =>
  `CASE WHEN answered_at IS NULL THEN 0 ELSE greatest(0, floor(extract(epoch FROM (${end} - answered_at))))::int END`;

/**
 * The callee answers the ringing call, if it still rings ($4: not past the ring timeout).
 * $1 callee, $2 caller, $3 now, $4 ring timeout in ms.
 */
const ACCEPT_SQL = `
UPDATE call_record SET answered_at = $3::timestamptz
WHERE status = 'in_progress' AND answered_at IS NULL AND recipient_id = $1::uuid AND caller_id = $2::uuid
  AND started_at > $3::timestamptz - make_interval(secs => $4::double precision / 1000)
RETURNING id`;

/** The callee refuses the ringing call. $1 callee, $2 caller, $3 now. */
const REJECT_SQL = `
UPDATE call_record SET status = 'rejected', ended_at = $3::timestamptz, duration_seconds = 0
WHERE status = 'in_progress' AND answered_at IS NULL AND recipient_id = $1::uuid AND caller_id = $2::uuid
RETURNING ${ENDED_COLUMNS}`;

/** Either member ends the pair's active call: completed once answered, else missed. $1, $2 members, $3 now. */
const END_SQL = `
UPDATE call_record SET status = CASE WHEN answered_at IS NULL THEN 'missed' ELSE 'completed' END,
       ended_at = $3::timestamptz, duration_seconds = ${duration('$3::timestamptz')}
WHERE status = 'in_progress'
  AND ((caller_id = $1::uuid AND recipient_id = $2::uuid) OR (caller_id = $2::uuid AND recipient_id = $1::uuid))
RETURNING ${ENDED_COLUMNS}`;

/** A deleted member's active calls end: completed once answered, else missed. $1 member, $2 now. */
const END_MEMBER_CALLS_SQL = `
UPDATE call_record SET status = CASE WHEN answered_at IS NULL THEN 'missed' ELSE 'completed' END,
       ended_at = $2::timestamptz, duration_seconds = ${duration('$2::timestamptz')}
WHERE status = 'in_progress' AND (caller_id = $1::uuid OR recipient_id = $1::uuid)
RETURNING ${ENDED_COLUMNS}`;

/** The pair's active call, answered or not. $1, $2 members. */
const ACTIVE_BETWEEN_SQL = `
SELECT id, answered_at IS NOT NULL AS answered FROM call_record
WHERE status = 'in_progress'
  AND ((caller_id = $1::uuid AND recipient_id = $2::uuid) OR (caller_id = $2::uuid AND recipient_id = $1::uuid))`;

/** The member's answered active call and the other member. $1 member. */
const ANSWERED_CALL_OF_SQL = `
SELECT id, CASE WHEN caller_id = $1::uuid THEN recipient_id ELSE caller_id END AS peer_id FROM call_record
WHERE status = 'in_progress' AND answered_at IS NOT NULL AND (caller_id = $1::uuid OR recipient_id = $1::uuid)
LIMIT 1`;

/** Ring timeout: calls not answered in time become missed. $1 now, $2 timeout in ms. */
const RING_TIMEOUT_SQL = `
UPDATE call_record SET status = 'missed', ended_at = $1::timestamptz, duration_seconds = 0
WHERE status = 'in_progress' AND answered_at IS NULL
  AND started_at <= $1::timestamptz - make_interval(secs => $2::double precision / 1000)
RETURNING ${ENDED_COLUMNS}`;

/** The members of active calls (for presence). */
const ACTIVE_MEMBERS_SQL = `SELECT caller_id, recipient_id FROM call_record WHERE status = 'in_progress'`;

/** Records who is offline since when ($2: the online members; $1 now). */
const MARK_OFFLINE_SQL = `
UPDATE call_record
   SET caller_offline_since = CASE WHEN caller_id::text = ANY($2::text[]) THEN NULL ELSE coalesce(caller_offline_since, $1::timestamptz) END,
       recipient_offline_since = CASE WHEN recipient_id::text = ANY($2::text[]) THEN NULL ELSE coalesce(recipient_offline_since, $1::timestamptz) END
 WHERE status = 'in_progress'`;

/** Ends calls a member left: offline longer than the grace. $1 now, $2 grace in ms. */
const DISCONNECT_END_SQL = `
UPDATE call_record SET status = CASE WHEN answered_at IS NULL THEN 'missed' ELSE 'completed' END,
       ended_at = $1::timestamptz, duration_seconds = ${duration('$1::timestamptz')}
WHERE status = 'in_progress'
  AND least(caller_offline_since, recipient_offline_since) < $1::timestamptz - make_interval(secs => $2::double precision / 1000)
RETURNING ${ENDED_COLUMNS}`;

/**
 * Whether the record's two members may call each other now: PAIR_CALLABLE_SQL's rule without the
 * pair gate (a Redis read per pair; call:initiate still applies it, so a pair the gate just closed
 * shows callable for the moment until its event lands and is refused with a clear message).
 */
const RECORD_CALLABLE = `(EXISTS (
    SELECT 1 FROM call_match m
    LEFT JOIN kit_pair pair ON pair.member_a = m.member_a AND pair.member_b = m.member_b
    WHERE m.member_a = least(r.caller_id, r.recipient_id) AND m.member_b = greatest(r.caller_id, r.recipient_id)
      AND ${liveMatch('m.match_id', 'm.matched_at', 'm.pair_version')})
  AND NOT ${CALLER_SUSPENDED} AND NOT ${RECIPIENT_SUSPENDED})`;

/**
 * The call row with both names and pictures, and whether the pair is callable. A suspended
 * member's picture is not shown (their profile answers 404 to everyone, as in chat's list).
 */
const RECORD_COLUMNS = `r.id, r.caller_id, r.recipient_id, r.status, r.started_at, r.duration_seconds,
  cm.name AS caller_name, rm.name AS recipient_name,
  CASE WHEN ${CALLER_SUSPENDED} THEN NULL ELSE cm.profile_picture END AS caller_picture,
  CASE WHEN ${RECIPIENT_SUSPENDED} THEN NULL ELSE rm.profile_picture END AS recipient_picture,
  ${RECORD_CALLABLE} AS callable`;
const NAMES = `LEFT JOIN call_member cm ON cm.user_id = r.caller_id LEFT JOIN call_member rm ON rm.user_id = r.recipient_id`;

/** A record's status matches the filter ($4: one of CALL_HISTORY_STATUSES, or null for every call). */
const STATUS_FILTER = `($4::text IS NULL OR status = $4::text)`;

/**
 * A member's calls, newest first, optionally of one status; each side walks its own index. Asked
 * for one row more than a page to tell whether another page follows. $1 member, $2 rows,
 * $3 offset, $4 status or null.
 */
const HISTORY_SQL = `
SELECT ${RECORD_COLUMNS} FROM (
  (SELECT * FROM call_record WHERE caller_id = $1::uuid AND ${STATUS_FILTER}
    ORDER BY started_at DESC, id DESC LIMIT $2::int + $3::int)
  UNION ALL
  (SELECT * FROM call_record WHERE recipient_id = $1::uuid AND ${STATUS_FILTER}
    ORDER BY started_at DESC, id DESC LIMIT $2::int + $3::int)
) r ${NAMES}
ORDER BY r.started_at DESC, r.id DESC LIMIT $2::int OFFSET $3::int`;

/** One call, only for its two members. $1 id, $2 member. */
const ONE_CALL_SQL = `
SELECT ${RECORD_COLUMNS} FROM call_record r ${NAMES}
WHERE r.id = $1::uuid AND (r.caller_id = $2::uuid OR r.recipient_id = $2::uuid)`;

/** A member's statistics. $1 member. */
const STATS_SQL = `
SELECT count(*)::int AS total,
       count(*) FILTER (WHERE status = 'completed')::int AS completed,
       coalesce(avg(duration_seconds) FILTER (WHERE status = 'completed'), 0)::float8 AS average
FROM call_record WHERE caller_id = $1::uuid OR recipient_id = $1::uuid`;

/** Which of these calls have a final status now. $1 call ids. */
const FINAL_OF_SQL = `SELECT id FROM call_record WHERE id = ANY($1::uuid[]) AND status <> 'in_progress'`;

/** The caller's name as call:incoming shows it. $1 member. */
const CALLER_NAME_SQL = 'SELECT name FROM call_member WHERE user_id = $1';

/** The `call_member` row of an anonymised member: no profile event can name it, none overwrites it. */
const ANONYMISED_MEMBER_VERSION = 2_147_483_647;

/**
 * Records whose other member was deleted before (their side is an anonymous stand-in): nobody
 * keeps them any more, so they go, and their stand-ins with them. $1 member, $2 the stand-ins' version.
 */
const DROP_ORPHANED_SQL = `
WITH gone AS (
  DELETE FROM call_record r
   WHERE (r.caller_id = $1::uuid AND r.recipient_id IN (SELECT user_id FROM call_member WHERE version = $2))
      OR (r.recipient_id = $1::uuid AND r.caller_id IN (SELECT user_id FROM call_member WHERE version = $2))
  RETURNING CASE WHEN r.caller_id = $1::uuid THEN r.recipient_id ELSE r.caller_id END AS stand_in
)
DELETE FROM call_member WHERE version = $2 AND user_id IN (SELECT stand_in FROM gone)`;

/**
 * Every other record keeps the other member's side: the deleted member's id becomes a fresh
 * random one per record (two records cannot be linked), whose `call_member` row says
 * DELETED_MEMBER_NAME. $1 member, $2 name, $3 version.
 */
const ANONYMISE_RECORDS_SQL = `
WITH stand_ins AS (
  SELECT id, gen_random_uuid() AS stand_in FROM call_record WHERE caller_id = $1::uuid OR recipient_id = $1::uuid
), moved AS (
  UPDATE call_record r
     SET caller_id = CASE WHEN r.caller_id = $1::uuid THEN s.stand_in ELSE r.caller_id END,
         recipient_id = CASE WHEN r.recipient_id = $1::uuid THEN s.stand_in ELSE r.recipient_id END
    FROM stand_ins s WHERE r.id = s.id
  RETURNING s.stand_in
)
INSERT INTO call_member (user_id, name, version) SELECT stand_in, $2, $3 FROM moved`;

/** Every call the member made or received, newest first, the other member by id only. $1 member. */
const EXPORT_SQL = `
SELECT id, CASE WHEN caller_id = $1::uuid THEN recipient_id ELSE caller_id END AS with_user_id,
       caller_id = $1::uuid AS outgoing, status, started_at, answered_at, ended_at, duration_seconds
  FROM call_record WHERE caller_id = $1::uuid OR recipient_id = $1::uuid
 ORDER BY started_at DESC, id DESC`;

export interface CallRow {
  id: string;
  caller_id: string;
  recipient_id: string;
  status: string;
  started_at: Date;
  duration_seconds: number | null;
  caller_name: string | null;
  recipient_name: string | null;
  caller_picture: string | null;
  recipient_picture: string | null;
  callable: boolean;
}

export interface EndedRow {
  id: string;
  caller_id: string;
  recipient_id: string;
  status: string;
  ended_at: Date;
  duration_seconds: number;
}

export interface CallExportRow {
  id: string;
  with_user_id: string;
  outgoing: boolean;
  status: string;
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number | null;
}

/** A new call's row. */
export interface NewCall {
  id: string;
  callerId: string;
  recipientId: string;
  /** 'in_progress' (it rings) or 'failed' (busy: recorded already final). */
  status: string;
  startedAt: Date;
}

type Queryable = Pick<EntityManager, 'query'>;

/**
 * `call_record` (issue 11, docs/adr/0015-calls.md): every transition is a conditional UPDATE on
 * `status = 'in_progress'` answering the calls it moved to a final status (EndedRow), so one of
 * two racing transitions wins; the reads of Call History; and whether a pair may call (liveMatch
 * over the pair and member projections). Methods taking an EntityManager run in the caller's
 * transaction.
 */
@Injectable()
export class CallRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
  ) {}

  /** Both members' locks, in the order given (the caller passes them ascending): one active call per member. */
  async lockMembers(manager: EntityManager, a: string, b: string): Promise<void> {
    await manager.query(MEMBER_LOCK_SQL, [a, b]);
  }

  /** PAIR_CALLABLE_SQL for the pair (a < b) and the gate's closing version (0: none). */
  async isCallable(a: string, b: string, floor: number, manager?: EntityManager): Promise<boolean> {
    const [{ callable }]: { callable: boolean }[] = await (manager ?? this.dataSource).query(
      PAIR_CALLABLE_SQL,
      [a, b, floor],
    );
    return callable;
  }

  /** Whether either member is in an active call. */
  async inActiveCall(manager: EntityManager, a: string, b: string): Promise<boolean> {
    const active: unknown[] = await manager.query(ACTIVE_OF_SQL, [a, b]);
    return active.length > 0;
  }

  /** BUSY_RECORDED_SQL: the caller's busy attempt on the callee is recorded for the calls keeping them busy now. */
  async busyRecorded(manager: EntityManager, callerId: string, calleeId: string): Promise<boolean> {
    const [{ recorded }]: { recorded: boolean }[] = await manager.query(BUSY_RECORDED_SQL, [
      callerId,
      calleeId,
    ]);
    return recorded;
  }

  async insert(manager: EntityManager, call: NewCall): Promise<void> {
    await manager.query(INSERT_CALL_SQL, [
      call.id,
      call.callerId,
      call.recipientId,
      call.status,
      call.startedAt,
    ]);
  }

  /** The caller's profile name, or null. */
  async callerName(manager: EntityManager, callerId: string): Promise<string | null> {
    const [member]: { name: string | null }[] = await manager.query(CALLER_NAME_SQL, [callerId]);
    return member?.name ?? null;
  }

  /** ACCEPT_SQL: whether the callee answered the pair's call, still ringing within `ringTimeoutMs`. */
  async accept(calleeId: string, callerId: string, now: Date, ringTimeoutMs: number): Promise<boolean> {
    return (
      updatedRows(await this.dataSource.query(ACCEPT_SQL, [calleeId, callerId, now, ringTimeoutMs])).length >
      0
    );
  }

  /** REJECT_SQL: the callee refuses the pair's ringing call. */
  async reject(manager: EntityManager, calleeId: string, callerId: string, now: Date): Promise<EndedRow[]> {
    return updatedRows<EndedRow>(await manager.query(REJECT_SQL, [calleeId, callerId, now]));
  }

  /** END_SQL: the pair's active call ends (completed once answered, else missed). */
  async endBetween(manager: EntityManager, x: string, y: string, now: Date): Promise<EndedRow[]> {
    return updatedRows<EndedRow>(await manager.query(END_SQL, [x, y, now]));
  }

  /** END_MEMBER_CALLS_SQL: every active call of the member ends. */
  async endCallsOf(manager: EntityManager, userId: string, now: Date): Promise<EndedRow[]> {
    return updatedRows<EndedRow>(await manager.query(END_MEMBER_CALLS_SQL, [userId, now]));
  }

  /** RING_TIMEOUT_SQL: calls not answered within `timeoutMs` become missed. */
  async endUnanswered(manager: EntityManager, now: Date, timeoutMs: number): Promise<EndedRow[]> {
    return updatedRows<EndedRow>(await manager.query(RING_TIMEOUT_SQL, [now, timeoutMs]));
  }

  /** DISCONNECT_END_SQL: calls a member left (offline longer than `graceMs`) end. */
  async endLeft(manager: EntityManager, now: Date, graceMs: number): Promise<EndedRow[]> {
    return updatedRows<EndedRow>(await manager.query(DISCONNECT_END_SQL, [now, graceMs]));
  }

  /** The pair's active call, answered or not, or null. */
  async activeBetween(x: string, y: string): Promise<{ id: string; answered: boolean } | null> {
    const [row]: { id: string; answered: boolean }[] = await this.dataSource.query(ACTIVE_BETWEEN_SQL, [
      x,
      y,
    ]);
    return row ?? null;
  }

  /** The member's answered active call and the other member, or null. */
  async answeredCallOf(userId: string): Promise<{ callId: string; peerId: string } | null> {
    const [row]: { id: string; peer_id: string }[] = await this.dataSource.query(ANSWERED_CALL_OF_SQL, [
      userId,
    ]);
    return row ? { callId: row.id, peerId: row.peer_id } : null;
  }

  /** The members of active calls, each once (for presence). */
  async activeMembers(): Promise<string[]> {
    const rows: { caller_id: string; recipient_id: string }[] =
      await this.dataSource.query(ACTIVE_MEMBERS_SQL);
    return [...new Set(rows.flatMap((r) => [r.caller_id, r.recipient_id]))];
  }

  /** MARK_OFFLINE_SQL: who of the active calls' members is offline since when. */
  async markOffline(now: Date, online: string[]): Promise<void> {
    await this.dataSource.query(MARK_OFFLINE_SQL, [now, online]);
  }

  /** Of these calls, the ids whose status is final now. */
  async finalOf(ids: string[], q: Queryable = this.dataSource): Promise<Set<string>> {
    const rows: { id: string }[] = await q.query(FINAL_OF_SQL, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * HISTORY_SQL: up to `rows` of the member's calls from `offset`, newest first, of one status or
   * all. On the read replica when configured and it has the member's own last call (ADR 0033).
   */
  history(userId: string, rows: number, offset: number, status: string | null): Promise<CallRow[]> {
    return this.reads.read<CallRow>(userId, { text: HISTORY_SQL, values: [userId, rows, offset, status] });
  }

  /** One call, only for its two members, or null. */
  async one(id: string, userId: string): Promise<CallRow | null> {
    const [row]: CallRow[] = await this.dataSource.query(ONE_CALL_SQL, [id, userId]);
    return row ?? null;
  }

  async stats(userId: string): Promise<{ total: number; completed: number; average: number }> {
    const [row]: { total: number; completed: number; average: number }[] = await this.dataSource.query(
      STATS_SQL,
      [userId],
    );
    return row;
  }

  /**
   * Erasure of the member's records: those whose other member was deleted before go with their
   * stand-ins (DROP_ORPHANED_SQL), every other one keeps the other member's side under a fresh
   * stand-in for this member (ANONYMISE_RECORDS_SQL).
   */
  async anonymiseRecordsOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(DROP_ORPHANED_SQL, [userId, ANONYMISED_MEMBER_VERSION]);
    await manager.query(ANONYMISE_RECORDS_SQL, [userId, DELETED_MEMBER_NAME, ANONYMISED_MEMBER_VERSION]);
  }

  exportRowsOf(userId: string): Promise<CallExportRow[]> {
    return this.dataSource.query(EXPORT_SQL, [userId]);
  }
}

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, count]. */
function updatedRows<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as T[];
  return Array.isArray(result) ? (result as T[]) : [];
}

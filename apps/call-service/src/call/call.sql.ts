/**
 * The SQL of call-service's rules. Ids are compared lower-cased; a pair is stored member_a < member_b.
 */

/**
 * A match is live when neither member blocks the other, no pair event named it as ended, and no
 * pair event newer than the one it was made under was applied (pair versions; by time only for
 * events from before versions). The same rule as chat (apps/chat-service/src/chat/chat.sql.ts).
 */
const liveMatch = (m: string, at: string, pv: string) =>
  `(NOT coalesce(pair.blocked, false)
    AND NOT EXISTS (SELECT 1 FROM call_ended_match e WHERE e.match_id = ${m})
    AND CASE WHEN ${pv} IS NOT NULL AND (pair.version IS NOT NULL OR pair.ended_before IS NULL)
             THEN ${pv} >= coalesce(pair.version, 0)
             ELSE (pair.ended_before IS NULL OR ${at} > pair.ended_before) END)`;

/**
 * Whether the pair may call: one of its matches is live and neither member is suspended (issue 13),
 * and the match was made under a pair version at least the pair gate's closing version (ADR 0024;
 * 0 when the gate is open or unset). $1 member_a, $2 member_b, $3 the gate's closing version.
 */
export const PAIR_CALLABLE_SQL = `
SELECT EXISTS (
  SELECT 1 FROM call_match m
  LEFT JOIN call_pair pair ON pair.member_a = m.member_a AND pair.member_b = m.member_b
  WHERE m.member_a = $1::uuid AND m.member_b = $2::uuid AND ${liveMatch('m.match_id', 'm.matched_at', 'm.pair_version')}
    AND coalesce(m.pair_version, 0) >= $3::int
) AND NOT EXISTS (SELECT 1 FROM call_member WHERE user_id IN ($1::uuid, $2::uuid) AND suspended) AS callable`;

/** Serializes everything that decides a member's active call (both members, in id order). */
export const MEMBER_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('call:' || $1::text, 0)),
                                      pg_advisory_xact_lock(hashtextextended('call:' || $2::text, 0))`;

/** Serializes a pair's projection writes. $1 member_a, $2 member_b. */
export const PAIR_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('call-pair:' || $1::text || ':' || $2::text, 0))`;

/** match.created. $1 match id, $2 member_a, $3 member_b, $4 matched at, $5 pair version (or null). */
export const RECORD_MATCH_SQL = `
INSERT INTO call_match (match_id, member_a, member_b, matched_at, pair_version)
VALUES ($1::uuid, $2::uuid, $3::uuid, $4::timestamptz, $5::int) ON CONFLICT (match_id) DO NOTHING`;

/** A pair event: the whole block state, its time and version. $1 a, $2 b, $3 blocked, $4 time, $5 version. */
export const PAIR_STATE_SQL = `
INSERT INTO call_pair (member_a, member_b, blocked, ended_before, version)
VALUES ($1::uuid, $2::uuid, $3::boolean, $4::timestamptz, $5::int)
ON CONFLICT (member_a, member_b) DO UPDATE
  SET blocked = EXCLUDED.blocked, ended_before = greatest(call_pair.ended_before, EXCLUDED.ended_before),
      version = greatest(call_pair.version, EXCLUDED.version), updated_at = now()`;

export const ENDED_MATCH_SQL = `INSERT INTO call_ended_match (match_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING`;

/** profile.updated: an older version never overwrites a newer one. $1 user, $2 name, $3 version, $4 picture. */
export const MEMBER_PROFILE_SQL = `
INSERT INTO call_member (user_id, name, version, profile_picture) VALUES ($1::uuid, $2, $3, $4)
ON CONFLICT (user_id) DO UPDATE
  SET name = EXCLUDED.name, version = EXCLUDED.version, profile_picture = EXCLUDED.profile_picture, updated_at = now()
  WHERE call_member.version < EXCLUDED.version OR EXCLUDED.version = 0`;

/** user.suspended / user.unsuspended: the member's whole suspension state. $1 user, $2 suspended. */
export const MEMBER_SUSPENDED_SQL = `
INSERT INTO call_member (user_id, suspended) VALUES ($1::uuid, $2::boolean)
ON CONFLICT (user_id) DO UPDATE SET suspended = EXCLUDED.suspended, updated_at = now()`;

/** The active calls of either member. $1, $2 member ids. */
export const ACTIVE_OF_SQL = `
SELECT id FROM call_record
WHERE status = 'in_progress' AND (caller_id IN ($1::uuid, $2::uuid) OR recipient_id IN ($1::uuid, $2::uuid))`;

/**
 * Whether this caller's busy attempt on this callee is already recorded for the calls that keep
 * them busy now: a failed call from $1 to $2 since the oldest of those active calls started
 * (issue 24 item 7: one entry per caller while the callee stays in their call, not one per
 * retry). $1 caller, $2 callee.
 */
export const BUSY_RECORDED_SQL = `
SELECT EXISTS (
  SELECT 1 FROM call_record r
  WHERE r.caller_id = $1::uuid AND r.recipient_id = $2::uuid AND r.status = 'failed'
    AND r.started_at >= (
      SELECT min(a.started_at) FROM call_record a
      WHERE a.status = 'in_progress'
        AND (a.caller_id IN ($1::uuid, $2::uuid) OR a.recipient_id IN ($1::uuid, $2::uuid)))
) AS recorded`;

/** A new call (a busy attempt is recorded already final). $1 id, $2 caller, $3 recipient, $4 status, $5 started at (server). */
export const INSERT_CALL_SQL = `
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
export const ACCEPT_SQL = `
UPDATE call_record SET answered_at = $3::timestamptz
WHERE status = 'in_progress' AND answered_at IS NULL AND recipient_id = $1::uuid AND caller_id = $2::uuid
  AND started_at > $3::timestamptz - make_interval(secs => $4::double precision / 1000)
RETURNING id`;

/** The callee refuses the ringing call. $1 callee, $2 caller, $3 now. */
export const REJECT_SQL = `
UPDATE call_record SET status = 'rejected', ended_at = $3::timestamptz, duration_seconds = 0
WHERE status = 'in_progress' AND answered_at IS NULL AND recipient_id = $1::uuid AND caller_id = $2::uuid
RETURNING ${ENDED_COLUMNS}`;

/** Either member ends the pair's active call: completed once answered, else missed. $1, $2 members, $3 now. */
export const END_SQL = `
UPDATE call_record SET status = CASE WHEN answered_at IS NULL THEN 'missed' ELSE 'completed' END,
       ended_at = $3::timestamptz, duration_seconds = ${duration('$3::timestamptz')}
WHERE status = 'in_progress'
  AND ((caller_id = $1::uuid AND recipient_id = $2::uuid) OR (caller_id = $2::uuid AND recipient_id = $1::uuid))
RETURNING ${ENDED_COLUMNS}`;

/** A deleted member's active calls end: completed once answered, else missed. $1 member, $2 now. */
export const END_MEMBER_CALLS_SQL = `
UPDATE call_record SET status = CASE WHEN answered_at IS NULL THEN 'missed' ELSE 'completed' END,
       ended_at = $2::timestamptz, duration_seconds = ${duration('$2::timestamptz')}
WHERE status = 'in_progress' AND (caller_id = $1::uuid OR recipient_id = $1::uuid)
RETURNING ${ENDED_COLUMNS}`;

/** The pair's active call, answered or not. $1, $2 members. */
export const ACTIVE_BETWEEN_SQL = `
SELECT id, answered_at IS NOT NULL AS answered FROM call_record
WHERE status = 'in_progress'
  AND ((caller_id = $1::uuid AND recipient_id = $2::uuid) OR (caller_id = $2::uuid AND recipient_id = $1::uuid))`;

/** The member's answered active call and the other member. $1 member. */
export const ANSWERED_CALL_OF_SQL = `
SELECT id, CASE WHEN caller_id = $1::uuid THEN recipient_id ELSE caller_id END AS peer_id FROM call_record
WHERE status = 'in_progress' AND answered_at IS NOT NULL AND (caller_id = $1::uuid OR recipient_id = $1::uuid)
LIMIT 1`;

/** Ring timeout: calls not answered in time become missed. $1 now, $2 timeout in ms. */
export const RING_TIMEOUT_SQL = `
UPDATE call_record SET status = 'missed', ended_at = $1::timestamptz, duration_seconds = 0
WHERE status = 'in_progress' AND answered_at IS NULL
  AND started_at <= $1::timestamptz - make_interval(secs => $2::double precision / 1000)
RETURNING ${ENDED_COLUMNS}`;

/** The members of active calls (for presence). */
export const ACTIVE_MEMBERS_SQL = `SELECT caller_id, recipient_id FROM call_record WHERE status = 'in_progress'`;

/** Records who is offline since when ($2: the online members; $1 now). */
export const MARK_OFFLINE_SQL = `
UPDATE call_record
   SET caller_offline_since = CASE WHEN caller_id::text = ANY($2::text[]) THEN NULL ELSE coalesce(caller_offline_since, $1::timestamptz) END,
       recipient_offline_since = CASE WHEN recipient_id::text = ANY($2::text[]) THEN NULL ELSE coalesce(recipient_offline_since, $1::timestamptz) END
 WHERE status = 'in_progress'`;

/** Ends calls a member left: offline longer than the grace. $1 now, $2 grace in ms. */
export const DISCONNECT_END_SQL = `
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
    LEFT JOIN call_pair pair ON pair.member_a = m.member_a AND pair.member_b = m.member_b
    WHERE m.member_a = least(r.caller_id, r.recipient_id) AND m.member_b = greatest(r.caller_id, r.recipient_id)
      AND ${liveMatch('m.match_id', 'm.matched_at', 'm.pair_version')})
  AND NOT coalesce(cm.suspended, false) AND NOT coalesce(rm.suspended, false))`;

/**
 * The call row with both names and pictures, and whether the pair is callable. A suspended
 * member's picture is not shown (their profile answers 404 to everyone, as in chat's list).
 */
const RECORD_COLUMNS = `r.id, r.caller_id, r.recipient_id, r.status, r.started_at, r.duration_seconds,
  cm.name AS caller_name, rm.name AS recipient_name,
  CASE WHEN cm.suspended THEN NULL ELSE cm.profile_picture END AS caller_picture,
  CASE WHEN rm.suspended THEN NULL ELSE rm.profile_picture END AS recipient_picture,
  ${RECORD_CALLABLE} AS callable`;
const NAMES = `LEFT JOIN call_member cm ON cm.user_id = r.caller_id LEFT JOIN call_member rm ON rm.user_id = r.recipient_id`;

/** A record's status matches the filter ($4: one of CALL_HISTORY_STATUSES, or null for every call). */
const STATUS_FILTER = `($4::text IS NULL OR status = $4::text)`;

/**
 * A member's calls, newest first, optionally of one status; each side walks its own index. Asked
 * for one row more than a page to tell whether another page follows. $1 member, $2 rows,
 * $3 offset, $4 status or null.
 */
export const HISTORY_SQL = `
SELECT ${RECORD_COLUMNS} FROM (
  (SELECT * FROM call_record WHERE caller_id = $1::uuid AND ${STATUS_FILTER}
    ORDER BY started_at DESC, id DESC LIMIT $2::int + $3::int)
  UNION ALL
  (SELECT * FROM call_record WHERE recipient_id = $1::uuid AND ${STATUS_FILTER}
    ORDER BY started_at DESC, id DESC LIMIT $2::int + $3::int)
) r ${NAMES}
ORDER BY r.started_at DESC, r.id DESC LIMIT $2::int OFFSET $3::int`;

/** One call, only for its two members. $1 id, $2 member. */
export const ONE_CALL_SQL = `
SELECT ${RECORD_COLUMNS} FROM call_record r ${NAMES}
WHERE r.id = $1::uuid AND (r.caller_id = $2::uuid OR r.recipient_id = $2::uuid)`;

/** A member's statistics. $1 member. */
export const STATS_SQL = `
SELECT count(*)::int AS total,
       count(*) FILTER (WHERE status = 'completed')::int AS completed,
       coalesce(avg(duration_seconds) FILTER (WHERE status = 'completed'), 0)::float8 AS average
FROM call_record WHERE caller_id = $1::uuid OR recipient_id = $1::uuid`;

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

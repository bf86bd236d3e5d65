import { insertOutboxFacts } from '@mate/server-kit';
import type { StoredMessage } from './chat-mapper';

/**
 * The statements of chat-service's hot paths. Message rows come back in the shape of MessageRow;
 * `chat-mapper.ts` turns them into ChatMessageDto.
 */

/** The message columns every read returns, with the recipient's read position and the sender's name. */
export const MESSAGE_COLUMNS = `m.id, m.conversation_id, m.seq, m.sender_id, m.recipient_id, m.client_id, m.content, m.created_at`;

export interface MessageRow extends StoredMessage {
  created_at: Date;
  /** The recipient's read position in the conversation. */
  recipient_read_seq: number;
  sender_name: string | null;
}

/** A time as the ISO text clients hold (UTC, milliseconds): the statements answer it ready to send. */
const ISO_TIME = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The sends of a batch (the gateway delivers up to 64 socket events in one request), in one
 * statement, run inside one transaction (MessageSender: BEGIN, this, the pair gate, COMMIT).
 *
 * `$1` is a JSON array of the sends, `{ ord, id, a, b, sender, recipient, client_id, content,
 * event_id, event }` (ord: the send's place in the batch; a < b: the ordered pair; event: the
 * message.sent envelope factRow built, completed here), with no two of one sender and client id
 * (the caller keeps a repeat for a later round, where it is a retry).
 *
 * - `conv` locks every pair's conversation row, in id order (two batches sharing conversations
 *   lock them in the same order, so they queue rather than deadlock). A locking read waits for a
 *   concurrent send's commit and then answers the row's newest version (READ COMMITTED), so every
 *   send to one conversation, from either side and any batch, runs one after the other.
 * - `accepted`: the sends whose conversation is open (not closed, not anonymised: the other member
 *   deleted their account), whose members are not suspended (issue 13) and whose sender has no
 *   message with that client id; in each conversation numbered last_seq + 1, + 2, ... in batch
 *   order. `created_at` is one time per statement taken once every lock is held (`at` counts `conv`
 *   first), at millisecond precision, never before the conversation's previous message: within a
 *   conversation it never decreases with seq, and it reads back exactly as the ISO time the client gets.
 * - `inserted`: `ON CONFLICT (sender_id, client_id) DO NOTHING` skips a send whose client id a
 *   concurrent transaction committed after this statement's snapshot (a retry racing its first
 *   try). Skipping would leave a hole in the conversation's seqs, so the statement then answers
 *   `raced` and the caller rolls back and runs it again: the new snapshot sees that message as the
 *   sender's existing one.
 * - `moved` moves each conversation's last message and adds to the recipients' unread counters;
 *   `facts` completes each message.sent envelope (conversationId, seq, first, sentAt) and the kit's
 *   statement writes the outbox rows.
 *
 * Answers one row per send, in batch order: the conversation (null when the pair has none),
 * whether the send is refused (no open conversation, a suspended member), the recipient's read
 * position, history_from_seq and the pair version the match was made under; the sender's name;
 * the new message's seq and time (null when not inserted); the sender's existing message with this
 * client id (in whichever conversation); and `raced`.
 */
export const SEND_BATCH_SQL = `
WITH item AS (
  SELECT * FROM json_to_recordset($1::json)
    AS t(ord int, id uuid, a uuid, b uuid, sender uuid, recipient uuid, client_id text, content text, event_id uuid, event jsonb)
), conv AS (
  -- LATERAL lookups (LIMIT 1 keeps the planner from flattening them into a join): one probe of a
  -- unique index per pair, client id and member, whatever the tables hold, never a scan of a table.
  SELECT c.id, c.member_a, c.member_b, c.last_seq, c.a_read_seq, c.b_read_seq, c.closed_at, c.last_message_at,
         c.history_from_seq, c.anonymised_at, c.match_pair_version
  FROM conversation c
  WHERE c.id IN (SELECT x.id FROM (SELECT DISTINCT a, b FROM item) p
                 CROSS JOIN LATERAL (SELECT id FROM conversation WHERE member_a = p.a AND member_b = p.b LIMIT 1) x)
  -- Locked in id order (LockRows above the sort), whatever order the pairs came in.
  ORDER BY c.id
  FOR UPDATE OF c
), existing AS (
  SELECT m.id, m.conversation_id, m.seq, m.sender_id, m.recipient_id, m.client_id, m.content, m.created_at
  FROM item i CROSS JOIN LATERAL (SELECT * FROM message WHERE sender_id = i.sender AND client_id = i.client_id LIMIT 1) m
), suspended AS (
  SELECT cm.user_id FROM (SELECT sender AS id FROM item UNION SELECT recipient FROM item) u
  CROSS JOIN LATERAL (SELECT user_id FROM chat_member WHERE user_id = u.id AND suspended LIMIT 1) cm
), at AS (
  SELECT date_trunc('milliseconds', clock_timestamp()) AS now FROM (SELECT count(*) FROM conv) locked
), accepted AS (
  SELECT i.id, c.id AS conversation_id, c.last_seq + row_number() OVER (PARTITION BY c.id ORDER BY i.ord) AS seq,
         i.sender, i.recipient, i.client_id, i.content, greatest(at.now, c.last_message_at) AS created_at
  FROM item i JOIN conv c ON c.member_a = i.a AND c.member_b = i.b CROSS JOIN at
  WHERE c.closed_at IS NULL AND c.anonymised_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM existing e WHERE e.sender_id = i.sender AND e.client_id = i.client_id)
    AND NOT EXISTS (SELECT 1 FROM suspended s WHERE s.user_id IN (i.sender, i.recipient))
), inserted AS (
  INSERT INTO message (id, conversation_id, seq, sender_id, recipient_id, client_id, content, created_at)
  SELECT id, conversation_id, seq, sender, recipient, client_id, content, created_at FROM accepted
  ON CONFLICT (sender_id, client_id) DO NOTHING
  RETURNING id, conversation_id, seq, recipient_id, created_at
), moved AS (
  UPDATE conversation c
     SET last_seq = n.last_seq, last_message_id = n.last_id, last_message_at = n.last_at,
         a_unread = c.a_unread + n.to_a, b_unread = c.b_unread + n.to_b
    FROM (SELECT i.conversation_id, max(i.seq) AS last_seq, (array_agg(i.id ORDER BY i.seq DESC))[1] AS last_id,
                 max(i.created_at) AS last_at,
                 count(*) FILTER (WHERE i.recipient_id = k.member_a)::int AS to_a,
                 count(*) FILTER (WHERE i.recipient_id = k.member_b)::int AS to_b
            FROM inserted i JOIN conv k ON k.id = i.conversation_id
           GROUP BY i.conversation_id) n
   WHERE c.id = n.conversation_id
  RETURNING c.id
), facts AS (
  SELECT t.event_id AS id, 'message.sent' AS name,
    jsonb_set(jsonb_set(jsonb_set(jsonb_set(t.event,
      '{payload,conversationId}', to_jsonb(i.conversation_id::text)),
      '{payload,seq}', to_jsonb(i.seq)),
      '{payload,first}', to_jsonb(i.seq = k.history_from_seq + 1)),
      '{payload,sentAt}', to_jsonb(${ISO_TIME('i.created_at')})) AS body
  FROM inserted i JOIN item t ON t.id = i.id JOIN conv k ON k.id = i.conversation_id
), event AS (
  ${insertOutboxFacts('facts')}
)
SELECT t.ord, c.id AS conversation_id,
       (c.id IS NULL OR c.closed_at IS NOT NULL OR c.anonymised_at IS NOT NULL
         OR EXISTS (SELECT 1 FROM suspended s WHERE s.user_id IN (t.sender, t.recipient))) AS refused,
       c.history_from_seq, c.match_pair_version,
       CASE WHEN c.member_a = t.recipient THEN c.a_read_seq ELSE c.b_read_seq END AS recipient_read_seq,
       (SELECT name FROM chat_member WHERE user_id = t.sender) AS sender_name,
       i.seq, ${ISO_TIME('i.created_at')} AS created_at,
       e.id AS existing_id, e.conversation_id AS existing_conversation_id, e.seq AS existing_seq,
       e.recipient_id AS existing_recipient_id, e.content AS existing_content, ${ISO_TIME('e.created_at')} AS existing_created_at,
       (SELECT count(*) FROM inserted) < (SELECT count(*) FROM accepted) AS raced
FROM item t
LEFT JOIN conv c ON c.member_a = t.a AND c.member_b = t.b
LEFT JOIN inserted i ON i.id = t.id
LEFT JOIN existing e ON e.sender_id = t.sender AND e.client_id = t.client_id
ORDER BY t.ord`;

/** One send of SEND_BATCH_SQL's `$1`. */
export interface SendBatchItem {
  ord: number;
  id: string;
  a: string;
  b: string;
  sender: string;
  recipient: string;
  client_id: string;
  content: string;
  event_id: string;
  event: object;
}

/** What SEND_BATCH_SQL answers for one send. */
export interface SendBatchRow {
  ord: number;
  conversation_id: string | null;
  refused: boolean;
  history_from_seq: number | null;
  /** The pair version the conversation's match was made under (null: a match from before versions). */
  match_pair_version: number | null;
  recipient_read_seq: number | null;
  sender_name: string | null;
  /** The new message's seq and time, or null when it was not inserted. */
  seq: number | null;
  created_at: string | null;
  existing_id: string | null;
  existing_conversation_id: string | null;
  existing_seq: number | null;
  existing_recipient_id: string | null;
  existing_content: string | null;
  existing_created_at: string | null;
  raced: boolean;
}

/** The seq of a conversation's last message its members can see (0 while a re-match hides them all). */
const VISIBLE_LAST_SEQ = 'CASE WHEN c.last_seq > c.history_from_seq THEN c.last_seq ELSE 0 END AS last_seq';

/**
 * The caller's open conversations, newest activity first, from both sides of the pair (each side
 * walks its own partial index), with the other member's name and picture and the last message.
 * `last_seq` is the seq of the last message the caller can see: 0 while a re-match hides everything
 * before it (history_from_seq). A suspended member shows no name and no picture, as their profile
 * answers 404 to everyone (issue 24 item 10). $1 caller, $2 the most rows.
 */
export const CONVERSATIONS_SQL = `
WITH mine AS (
  (SELECT c.id, c.member_b AS other, c.a_unread AS unread, ${VISIBLE_LAST_SEQ}, c.last_message_id, c.matched_at,
          coalesce(c.last_message_at, c.matched_at) AS activity, c.anonymised_at IS NOT NULL AS read_only
     FROM conversation c WHERE c.member_a = $1::uuid AND c.closed_at IS NULL
    ORDER BY coalesce(c.last_message_at, c.matched_at) DESC LIMIT $2)
  UNION ALL
  (SELECT c.id, c.member_a AS other, c.b_unread AS unread, ${VISIBLE_LAST_SEQ}, c.last_message_id, c.matched_at,
          coalesce(c.last_message_at, c.matched_at) AS activity, c.anonymised_at IS NOT NULL AS read_only
     FROM conversation c WHERE c.member_b = $1::uuid AND c.closed_at IS NULL
    ORDER BY coalesce(c.last_message_at, c.matched_at) DESC LIMIT $2)
)
SELECT mine.other, mine.unread, mine.last_seq, mine.matched_at, mine.activity, mine.read_only,
       CASE WHEN cm.suspended THEN NULL ELSE cm.name END AS name,
       CASE WHEN cm.suspended THEN NULL ELSE cm.profile_picture END AS profile_picture,
       m.content AS last_content, m.sender_id AS last_sender_id
FROM mine
LEFT JOIN chat_member cm ON cm.user_id = mine.other
LEFT JOIN message m ON m.id = mine.last_message_id
ORDER BY mine.activity DESC, mine.id
LIMIT $2`;

export interface ConversationListRow {
  other: string;
  unread: number;
  last_seq: number;
  matched_at: Date;
  activity: Date;
  name: string | null;
  profile_picture: string | null;
  last_content: string | null;
  last_sender_id: string | null;
  /** The other member deleted their account (issue 12): readable, never writable. */
  read_only: boolean;
}

/** The caller's unread messages over their open conversations. $1 caller. */
export const UNREAD_COUNT_SQL = `
SELECT (coalesce((SELECT sum(a_unread) FROM conversation WHERE member_a = $1::uuid AND closed_at IS NULL), 0)
      + coalesce((SELECT sum(b_unread) FROM conversation WHERE member_b = $1::uuid AND closed_at IS NULL), 0))::int AS count`;

/**
 * The open conversation of a pair, as the caller sees it. $1 member_a, $2 member_b, $3 caller.
 * Every member-facing read starts after `history_from_seq` (0 unless a re-match reopened it).
 */
export const CONVERSATION_SQL = `
SELECT c.id, c.last_seq, c.history_from_seq,
       CASE WHEN c.member_a = $3::uuid THEN c.b_read_seq ELSE c.a_read_seq END AS other_read_seq,
       CASE WHEN c.member_a = $3::uuid THEN c.a_read_seq ELSE c.b_read_seq END AS own_read_seq
FROM conversation c WHERE c.member_a = $1::uuid AND c.member_b = $2::uuid AND c.closed_at IS NULL`;

export interface ConversationRow {
  id: string;
  last_seq: number;
  /** Members see only the messages after this seq (the history before a re-match is hidden). */
  history_from_seq: number;
  other_read_seq: number;
  own_read_seq: number;
}

/**
 * One page of a conversation, read newest first or oldest first from a cursor; the caller sorts
 * ascending. $1 conversation, $2 lower bound (exclusive), $3 upper bound (exclusive), $4 rows,
 * $5 true to take the lowest seqs in range (after=), false the highest (newest, before=).
 */
export const PAGE_SQL = `
SELECT ${MESSAGE_COLUMNS},
  CASE WHEN m.recipient_id = c.member_a THEN c.a_read_seq ELSE c.b_read_seq END AS recipient_read_seq,
  cm.name AS sender_name
FROM (
  (SELECT * FROM message WHERE conversation_id = $1::uuid AND seq > $2::int AND seq < $3::int AND $5::boolean
    ORDER BY seq ASC LIMIT $4)
  UNION ALL
  (SELECT * FROM message WHERE conversation_id = $1::uuid AND seq > $2::int AND seq < $3::int AND NOT $5::boolean
    ORDER BY seq DESC LIMIT $4)
) m
JOIN conversation c ON c.id = m.conversation_id
LEFT JOIN chat_member cm ON cm.user_id = m.sender_id
ORDER BY m.seq`;

/**
 * sync_messages: in the caller's open conversations, what follows each named position
 * ($2 other members, $3 their afterSeq) and/or what was created after $4 (null: none), ascending
 * (conversation, seq), at most $5 in all, never at or before a conversation's history_from_seq
 * (the history before a re-match is hidden). $1 caller.
 *
 * Bounded work whatever is asked (a `since` of 1970 from a member with hundreds of long
 * conversations read every message of them before: 0.5 to 1.7 s a call at 500 conversations of 200
 * messages). Each conversation gets one start position: its named afterSeq when the caller named
 * it, else the seq before its first message after $4 (one index probe; created_at never decreases
 * with seq in a conversation, SEND_BATCH_SQL makes sure). A named position wins over `since` (the caller
 * holds everything up to it): taking the lower of the two answered a since-sync's follow-up
 * ("ask again from the new positions") with the same first page for ever. Seqs have no gaps, so `last_seq - start` is how many
 * messages it has to give; only the conversations, in id order, that begin before $5 messages
 * are reached are read, each from its start position on the (conversation_id, seq) index.
 */
export const SYNC_SQL = `
WITH mine AS (
  SELECT id, member_b AS other, last_seq, history_from_seq FROM conversation WHERE member_a = $1::uuid AND closed_at IS NULL
  UNION ALL
  SELECT id, member_a AS other, last_seq, history_from_seq FROM conversation WHERE member_b = $1::uuid AND closed_at IS NULL
), wanted AS (
  SELECT w.other, min(w.after_seq) AS after_seq FROM unnest($2::uuid[], $3::int[]) AS w(other, after_seq) GROUP BY w.other
), started AS (
  -- Never before history_from_seq (the history before a re-match is hidden); null stays null
  -- (nothing after since in a conversation the caller did not name). The since probe may land on
  -- a hidden message (one index probe, as before: no seq filter, which would make it read every
  -- message of the conversation); every visible message comes later, so the clamp is exact.
  SELECT c.id, c.last_seq, CASE WHEN coalesce(w.after_seq, t.after_seq) IS NULL THEN NULL
                                ELSE greatest(coalesce(w.after_seq, t.after_seq), c.history_from_seq) END AS after_seq
  FROM mine c
  LEFT JOIN wanted w ON w.other = c.other
  LEFT JOIN LATERAL (
    SELECT m.seq - 1 AS after_seq FROM message m
    WHERE w.other IS NULL AND m.conversation_id = c.id AND m.created_at > $4::timestamptz
    ORDER BY m.created_at, m.seq LIMIT 1
  ) t ON true
), counted AS (
  SELECT id, after_seq, sum(last_seq - after_seq) OVER (ORDER BY id) - (last_seq - after_seq) AS before_it
  FROM started WHERE after_seq < last_seq
)
SELECT ${MESSAGE_COLUMNS},
  CASE WHEN m.recipient_id = c.member_a THEN c.a_read_seq ELSE c.b_read_seq END AS recipient_read_seq,
  cm.name AS sender_name
FROM counted k
JOIN conversation c ON c.id = k.id
CROSS JOIN LATERAL (
  SELECT * FROM message WHERE conversation_id = k.id AND seq > k.after_seq ORDER BY seq LIMIT $5
) m
LEFT JOIN chat_member cm ON cm.user_id = m.sender_id
WHERE k.before_it < $5
ORDER BY m.conversation_id, m.seq
LIMIT $5`;

/**
 * Marks the caller's side of an open conversation read up to its last message and zeroes their
 * unread counter; answers the position and whether it moved. $1 member_a, $2 member_b, $3 caller.
 *
 * The UPDATE runs only when something changes (the caller's position is behind, or their counter
 * is not 0): a repeated mark_as_read (a client on every focus, or a flood) is one index read, no
 * row version and no row lock. When it does run it waits for a send's row lock and re-checks its
 * condition on the row as that send left it (READ COMMITTED), so a read never interleaves with a
 * send. `previous` comes from the statement's snapshot: two reads racing may both say "moved"
 * (the other member hears messages_read twice, harmless), never neither.
 */
export const MARK_READ_SQL = `
WITH old AS (
  SELECT id, last_seq, CASE WHEN member_a = $3::uuid THEN a_read_seq ELSE b_read_seq END AS previous
  FROM conversation
  WHERE member_a = $1::uuid AND member_b = $2::uuid AND closed_at IS NULL
), updated AS (
  UPDATE conversation c
     SET a_read_seq = CASE WHEN c.member_a = $3::uuid THEN c.last_seq ELSE c.a_read_seq END,
         a_unread = CASE WHEN c.member_a = $3::uuid THEN 0 ELSE c.a_unread END,
         b_read_seq = CASE WHEN c.member_a = $3::uuid THEN c.b_read_seq ELSE c.last_seq END,
         b_unread = CASE WHEN c.member_a = $3::uuid THEN c.b_unread ELSE 0 END
    FROM old
   WHERE c.id = old.id
     AND CASE WHEN c.member_a = $3::uuid THEN c.a_read_seq < c.last_seq OR c.a_unread <> 0
              ELSE c.b_read_seq < c.last_seq OR c.b_unread <> 0 END
  RETURNING c.last_seq
)
SELECT coalesce(u.last_seq, old.last_seq) AS last_seq,
       CASE WHEN u.last_seq IS NULL THEN old.last_seq ELSE old.previous END AS previous
FROM old LEFT JOIN updated u ON true`;

/**
 * Whether typing may be relayed in the pair: an open conversation, neither member suspended (issue 13);
 * and the pair version its match was made under (for the pair gate). $1 member_a, $2 member_b.
 */
export const OPEN_PAIR_SQL = `SELECT EXISTS (SELECT 1 FROM conversation WHERE member_a = $1::uuid AND member_b = $2::uuid AND closed_at IS NULL AND anonymised_at IS NULL)
  AND NOT EXISTS (SELECT 1 FROM chat_member WHERE user_id IN ($1::uuid, $2::uuid) AND suspended) AS open,
  (SELECT match_pair_version FROM conversation WHERE member_a = $1::uuid AND member_b = $2::uuid) AS match_pair_version`;

/*
 * Safety (issue 10): what chat knows of a pair from safety's pair events (`chat_pair`,
 * `ended_match`) decides whether the pair's conversation is open. A match is live when neither
 * member blocks the other, no pair event named it ended, and no pair event newer than the match
 * was applied (every pair event means "the pair has no match now"): the match's `pairVersion`
 * (the pair version matching had applied when it made it) is at least the newest pair version
 * chat applied. Versions, not clocks; only a match.created written before versions (no
 * pairVersion) falls back to comparing its time with the newest pair event's. The conversation is
 * open exactly while its match is live. Both handlers take the pair's lock first (PAIR_LOCK_SQL), so a
 * match.created and a pair event of one pair apply one after the other, each seeing the other's
 * commit, whatever order they arrive in.
 */

/** The pair's transaction-scoped lock. $1 member_a, $2 member_b. */
export const PAIR_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('chat_pair:' || $1::text || ':' || $2::text, 0))`;

/**
 * Whether a match `m` of pair (member_a, member_b) made under pair version `pv` (null: an event from
 * before versions) at `at` is live, as a SQL expression. `pair` is the chat_pair row (a LEFT JOIN:
 * no row, no pair event yet).
 */
const liveMatch = (m: string, at: string, pv: string) =>
  `(NOT coalesce(pair.blocked, false)
    AND NOT EXISTS (SELECT 1 FROM ended_match e WHERE e.match_id = ${m})
    AND CASE WHEN ${pv} IS NOT NULL AND (pair.version IS NOT NULL OR pair.ended_before IS NULL)
             THEN ${pv} >= coalesce(pair.version, 0)
             ELSE (pair.ended_before IS NULL OR ${at} > pair.ended_before) END)`;

/**
 * A pair event: records the pair's block state, its version and its time (the newest one wins: the
 * consumer applies a pair's events in version order only). $1 member_a, $2 member_b, $3 blocked,
 * $4 the event's time, $5 its pair version (null when the envelope had none).
 */
export const PAIR_STATE_SQL = `
INSERT INTO chat_pair (member_a, member_b, blocked, ended_before, version)
VALUES ($1::uuid, $2::uuid, $3::boolean, $4::timestamptz, $5::int)
ON CONFLICT (member_a, member_b) DO UPDATE
  SET blocked = EXCLUDED.blocked, ended_before = greatest(chat_pair.ended_before, EXCLUDED.ended_before),
      version = greatest(chat_pair.version, EXCLUDED.version), updated_at = now()`;

/** A match a pair event named as ended. $1 match id, $2 member_a, $3 member_b. */
export const ENDED_MATCH_SQL = `
INSERT INTO ended_match (match_id, member_a, member_b) VALUES ($1::uuid, $2::uuid, $3::uuid) ON CONFLICT (match_id) DO NOTHING`;

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
export const SETTLE_PAIR_SQL = `
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
  LEFT JOIN chat_pair pair ON pair.member_a = k.a AND pair.member_b = k.b
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
export const OPEN_MATCH_SQL = `
INSERT INTO conversation AS c (id, member_a, member_b, match_id, matched_at, match_pair_version, closed_at)
SELECT $1::uuid, $2::uuid, $3::uuid, $1::uuid, $4::timestamptz, $5::int,
       CASE WHEN ${liveMatch('$1::uuid', '$4::timestamptz', '$5::int')} THEN NULL ELSE now() END
  FROM (SELECT $2::uuid AS a, $3::uuid AS b) k
  LEFT JOIN chat_pair pair ON pair.member_a = k.a AND pair.member_b = k.b
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
 * The internal pair snapshot (moderation): the newest $4 messages of the pair's conversation sent
 * before $3, whether it is open or closed and including hidden history; newest first (the caller
 * reverses). $1 member_a, $2 member_b.
 */
export const PAIR_SNAPSHOT_SQL = `
SELECT m.id, m.seq, m.sender_id, m.recipient_id, m.content, m.created_at
FROM conversation c JOIN message m ON m.conversation_id = c.id
WHERE c.member_a = $1::uuid AND c.member_b = $2::uuid AND m.created_at < $3::timestamptz
ORDER BY m.seq DESC
LIMIT $4`;

export interface PairSnapshotRow {
  id: string;
  seq: number;
  sender_id: string;
  recipient_id: string;
  content: string;
  created_at: Date;
}

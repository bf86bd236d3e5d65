import { completedFactBody, insertOutboxFacts, memberSuspendedSql, type PayloadCompletion } from '@mate/server-kit';

/*
 * The send statement of MessageRepository (message.repository.ts), the one module that imports
 * this file: long enough to read on its own. Its input and answer are SendBatchItem and
 * SendBatchRow there.
 */

/** A time as the ISO text clients hold (UTC, milliseconds): the statements answer it ready to send. */
const ISO_TIME = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The message.sent fields only the send statement knows (MessageSender builds the rest of the
 * payload, typed without these): the conversation it locked, the seq it numbered, whether the
 * message is the first its members see (`history_from_seq`) and when it was stored.
 */
export type MessageSentByStatement = 'conversationId' | 'seq' | 'first' | 'sentAt';
const MESSAGE_SENT_BY_STATEMENT: PayloadCompletion<'message.sent', MessageSentByStatement> = {
  conversationId: 'i.conversation_id::text',
  seq: 'i.seq',
  first: 'i.seq = k.history_from_seq + 1',
  sentAt: ISO_TIME('i.created_at'),
};

/**
 * The sends of a batch (the gateway delivers up to 64 socket events in one request), in one
 * statement, run inside one transaction (MessageSender: BEGIN, this, the pair gate, COMMIT).
 *
 * `$1` is a JSON array of the sends, `{ ord, id, a, b, sender, recipient, client_id, content,
 * event_id, event }` (ord: the send's place in the batch; a < b: the ordered pair; event: the
 * message.sent envelope factRowToComplete built, its payload completed here with
 * MESSAGE_SENT_BY_STATEMENT), with no two of one sender and client id
 * (the caller keeps a repeat for a later round, where it is a retry).
 *
 * - `conv` locks every pair's conversation row, in id order (two batches sharing conversations
 *   lock them in the same order, so they queue rather than deadlock). A locking read waits for a
 *   concurrent send's commit and then answers the row's newest version (READ COMMITTED), so every
 *   send to one conversation, from either side and any batch, runs one after the other.
 * - `accepted`: the sends whose conversation is open (not closed, not anonymised: the other member
 *   deleted their account), whose members are not suspended (issue 13; `suspended` probes the
 *   kit's projection once per member of the batch, memberSuspendedSql) and whose sender has no
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
  SELECT u.id AS user_id FROM (SELECT sender AS id FROM item UNION SELECT recipient FROM item) u
  WHERE ${memberSuspendedSql('u.id')}
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
    ${completedFactBody('t.event', MESSAGE_SENT_BY_STATEMENT)} AS body
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

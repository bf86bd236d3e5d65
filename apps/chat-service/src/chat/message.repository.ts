import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { driverPool, namedQuery, preparedStatement } from '@mate/server-kit';
import type { StoredMessage } from './chat-mapper';
import { SEND_BATCH_SQL } from './message.statements';

export type { MessageSentByStatement } from './message.statements';

/** The message columns every read returns, with the recipient's read position and the sender's name. */
const MESSAGE_COLUMNS = `m.id, m.conversation_id, m.seq, m.sender_id, m.recipient_id, m.client_id, m.content, m.created_at`;

/** A message as the reads answer it; `chat-mapper.ts` turns it into ChatMessageDto. */
export interface MessageRow extends StoredMessage {
  created_at: Date;
  /** The recipient's read position in the conversation. */
  recipient_read_seq: number;
  sender_name: string | null;
}

/**
 * One page of a conversation, read newest first or oldest first from a cursor; the caller sorts
 * ascending. $1 conversation, $2 lower bound (exclusive), $3 upper bound (exclusive), $4 rows,
 * $5 true to take the lowest seqs in range (after=), false the highest (newest, before=).
 */
const PAGE_SQL = `
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
 *
 * Exported for the spec that checks its plan (security.integration-spec.ts).
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
 * The internal pair snapshot (moderation): the newest $4 messages of the pair's conversation sent
 * before $3, whether it is open or closed and including hidden history; newest first (the caller
 * reverses). $1 member_a, $2 member_b.
 */
const PAIR_SNAPSHOT_SQL = `
SELECT m.id, m.seq, m.sender_id, m.recipient_id, m.content, m.created_at
FROM conversation c JOIN message m ON m.conversation_id = c.id
WHERE c.member_a = $1::uuid AND c.member_b = $2::uuid AND m.created_at < $3::timestamptz
ORDER BY m.seq DESC
LIMIT $4`;

const DELETE_SENT_BY_SQL = 'DELETE FROM message WHERE sender_id = $1::uuid';
const COUNT_IN_CONVERSATION_SQL =
  'SELECT count(*)::int AS kept FROM message WHERE conversation_id = $1::uuid';

export interface PairSnapshotRow {
  id: string;
  seq: number;
  sender_id: string;
  recipient_id: string;
  content: string;
  created_at: Date;
}

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

/** A send transaction's one connection: what MessageSender runs between BEGIN and COMMIT. */
export interface SendTransaction {
  /** SEND_BATCH_SQL (message.statements.ts) for `items`: one row per send, in batch order. */
  sendBatch(items: SendBatchItem[]): Promise<SendBatchRow[]>;
}

/**
 * The `message` table: the send statement, pages and sync of a conversation, the moderation
 * snapshot and what an erasure removes. The hot reads and the send run as named prepared
 * statements on the driver's pool (parsed once per connection).
 */
@Injectable()
export class MessageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * BEGIN, `work`, then COMMIT or ROLLBACK as it says, on one pool connection (dropped if it
   * cannot roll back): a round of sends is BEGIN + SEND_BATCH_SQL + COMMIT, one statement each.
   */
  async inSendTransaction<T>(
    work: (tx: SendTransaction) => Promise<{ commit: boolean; value: T }>,
  ): Promise<T> {
    const client = await driverPool(this.dataSource).connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const { commit, value } = await work(sendTransaction(this.dataSource, client));
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
      return value;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /** PAGE_SQL: messages of a conversation between two seqs (both exclusive), at most `rows`, ascending. */
  page(
    conversationId: string,
    lower: number,
    upper: number,
    rows: number,
    ascending: boolean,
  ): Promise<MessageRow[]> {
    return namedQuery<MessageRow>(this.dataSource, 'chat_page', PAGE_SQL, [
      conversationId,
      lower,
      upper,
      rows,
      ascending,
    ]);
  }

  /** SYNC_SQL: what follows the named positions and/or was created after `since`, at most `rows`. */
  sync(
    callerId: string,
    positions: { userId: string; afterSeq: number }[],
    since: Date | null,
    rows: number,
  ): Promise<MessageRow[]> {
    return namedQuery<MessageRow>(this.dataSource, 'chat_sync', SYNC_SQL, [
      callerId,
      positions.map((p) => p.userId),
      positions.map((p) => p.afterSeq),
      since,
      rows,
    ]);
  }

  /** The newest `limit` messages of the pair (a < b) sent before `before`, newest first, hidden history included. */
  pairSnapshot(a: string, b: string, before: Date, limit: number): Promise<PairSnapshotRow[]> {
    return namedQuery<PairSnapshotRow>(this.dataSource, 'chat_pair_snapshot', PAIR_SNAPSHOT_SQL, [
      a,
      b,
      before,
      limit,
    ]);
  }

  /** Erasure: every message the member sent. */
  async deleteSentBy(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(DELETE_SENT_BY_SQL, [userId]);
  }

  /** How many messages the conversation holds. */
  async countIn(manager: EntityManager, conversationId: string): Promise<number> {
    const [{ kept }]: { kept: number }[] = await manager.query(COUNT_IN_CONVERSATION_SQL, [conversationId]);
    return kept;
  }
}

function sendTransaction(dataSource: DataSource, client: PoolClient): SendTransaction {
  return {
    async sendBatch(items) {
      const { rows } = await client.query<SendBatchRow>(
        preparedStatement(dataSource, 'chat_send_batch', SEND_BATCH_SQL, [JSON.stringify(items)]),
      );
      return rows;
    },
  };
}

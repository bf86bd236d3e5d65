import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { memberSuspendedSql, namedQuery, ReadReplica } from '@mate/server-kit';

/** The seq of a conversation's last message its members can see (0 while a re-match hides them all). */
const VISIBLE_LAST_SEQ = 'CASE WHEN c.last_seq > c.history_from_seq THEN c.last_seq ELSE 0 END AS last_seq';

/**
 * The caller's open conversations, newest activity first, from both sides of the pair (each side
 * walks its own partial index), with the other member's name and picture and the last message.
 * `last_seq` is the seq of the last message the caller can see: 0 while a re-match hides everything
 * before it (history_from_seq). A suspended member (the kit's projection) shows no name and no
 * picture, as their profile answers 404 to everyone (issue 24 item 10). $1 caller, $2 the most rows.
 */
const CONVERSATIONS_SQL = `
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
       CASE WHEN other.suspended THEN NULL ELSE cm.name END AS name,
       CASE WHEN other.suspended THEN NULL ELSE cm.profile_picture END AS profile_picture,
       m.content AS last_content, m.sender_id AS last_sender_id
FROM mine
LEFT JOIN chat_member cm ON cm.user_id = mine.other
CROSS JOIN LATERAL (SELECT ${memberSuspendedSql('mine.other')} AS suspended) other
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
const UNREAD_COUNT_SQL = `
SELECT (coalesce((SELECT sum(a_unread) FROM conversation WHERE member_a = $1::uuid AND closed_at IS NULL), 0)
      + coalesce((SELECT sum(b_unread) FROM conversation WHERE member_b = $1::uuid AND closed_at IS NULL), 0))::int AS count`;

/**
 * The open conversation of a pair, as the caller sees it. $1 member_a, $2 member_b, $3 caller.
 * Every member-facing read starts after `history_from_seq` (0 unless a re-match reopened it).
 */
const CONVERSATION_SQL = `
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
const MARK_READ_SQL = `
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
 * Whether typing may be relayed in the pair: an open conversation, neither member suspended (issue 13,
 * the kit's projection); and the pair version its match was made under (for the pair gate).
 * $1 member_a, $2 member_b.
 */
const OPEN_PAIR_SQL = `SELECT EXISTS (SELECT 1 FROM conversation WHERE member_a = $1::uuid AND member_b = $2::uuid AND closed_at IS NULL AND anonymised_at IS NULL)
  AND NOT ${memberSuspendedSql('$1::uuid')} AND NOT ${memberSuspendedSql('$2::uuid')} AS open,
  (SELECT match_pair_version FROM conversation WHERE member_a = $1::uuid AND member_b = $2::uuid) AS match_pair_version`;

/**
 * Renumbers what is left of a conversation after the deleted member's messages went (seqs have no
 * gaps: sync counts a conversation's messages as `last_seq - position`) and moves the deleted
 * member's side to the fresh id. Every position (read seqs, history_from_seq) becomes the number
 * of remaining messages at or before it. The other member read everything that is left (it is
 * all theirs); the last message shown is the newest visible one.
 *
 * $1 conversation, $2 the deleted member, $3 the fresh id, $4 member_a, $5 member_b (the new pair).
 */
const ANONYMISE_CONVERSATION_SQL = `
WITH kept AS (
  SELECT id, seq, created_at, row_number() OVER (ORDER BY seq)::int AS n FROM message WHERE conversation_id = $1::uuid
), parked AS (
  -- (conversation_id, seq) is checked row by row: negative seqs first, flipped by the caller after.
  UPDATE message m SET seq = -kept.n, recipient_id = $3::uuid FROM kept WHERE m.id = kept.id RETURNING m.id
), old AS (
  SELECT c.*,
         CASE WHEN c.member_a = $2::uuid THEN c.a_read_seq ELSE c.b_read_seq END AS erased_read_seq,
         (SELECT count(*) FROM kept WHERE kept.seq <= c.history_from_seq)::int AS new_history_from
  FROM conversation c WHERE c.id = $1::uuid
), positions AS (
  SELECT old.*,
         (SELECT count(*) FROM kept)::int AS new_last_seq,
         (SELECT count(*) FROM kept WHERE kept.seq <= old.erased_read_seq)::int AS new_erased_read,
         (SELECT row_to_json(l) FROM (SELECT kept.id, kept.created_at FROM kept WHERE kept.n > old.new_history_from
                                       ORDER BY kept.n DESC LIMIT 1) l) AS last_visible
  FROM old
)
UPDATE conversation c
   SET member_a = $4::uuid, member_b = $5::uuid,
       last_seq = p.new_last_seq,
       history_from_seq = p.new_history_from,
       last_message_id = (p.last_visible->>'id')::uuid,
       last_message_at = (p.last_visible->>'created_at')::timestamptz,
       a_read_seq = CASE WHEN $4::uuid = $3::uuid THEN p.new_erased_read ELSE p.new_last_seq END,
       b_read_seq = CASE WHEN $5::uuid = $3::uuid THEN p.new_erased_read ELSE p.new_last_seq END,
       a_unread = 0, b_unread = 0,
       anonymised_at = now()
  FROM positions p
 WHERE c.id = p.id
RETURNING c.id`;

/** Flips the seqs ANONYMISE_CONVERSATION_SQL parked below zero. $1 conversation. */
const UNPARK_SEQS_SQL = 'UPDATE message SET seq = -seq WHERE conversation_id = $1::uuid AND seq < 0';

/** The member's conversations, locked, in id order. $1 member. */
const LOCK_CONVERSATIONS_OF_SQL =
  'SELECT id, member_a, member_b FROM conversation WHERE member_a = $1::uuid OR member_b = $1::uuid ORDER BY id FOR UPDATE';

const DELETE_CONVERSATION_SQL = 'DELETE FROM conversation WHERE id = $1::uuid';

/**
 * Every conversation of the member, open or closed, with every message (hidden history included)
 * and whether its recipient read it; the other member by id. $1 member.
 */
const EXPORT_SQL = `
SELECT c.id AS conversation_id,
       CASE WHEN c.member_a = $1::uuid THEN c.member_b ELSE c.member_a END AS with_user_id,
       c.matched_at, (c.closed_at IS NOT NULL OR c.anonymised_at IS NOT NULL) AS closed,
       m.id, m.seq, m.sender_id = $1::uuid AS sent, m.content, m.created_at,
       m.seq <= CASE WHEN m.recipient_id = c.member_a THEN c.a_read_seq ELSE c.b_read_seq END AS is_read
  FROM conversation c LEFT JOIN message m ON m.conversation_id = c.id
 WHERE c.member_a = $1::uuid OR c.member_b = $1::uuid
 ORDER BY c.matched_at, c.id, m.seq`;

export interface ConversationExportRow {
  conversation_id: string;
  with_user_id: string;
  matched_at: Date;
  closed: boolean;
  id: string | null;
  seq: number | null;
  sent: boolean | null;
  content: string | null;
  created_at: Date | null;
  is_read: boolean | null;
}

/**
 * The `conversation` table as its members read it: the list, the unread badge, one open
 * conversation, read positions and whether typing may pass; and what an erasure does to a
 * conversation. Opening and closing by matches and pair events is PairRepository's.
 */
@Injectable()
export class ConversationRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
  ) {}

  /**
   * CONVERSATIONS_SQL: the caller's open conversations, newest activity first, at most `max`. On
   * the read replica when configured and it has the caller's own last send or read (ADR 0033).
   */
  list(callerId: string, max: number): Promise<ConversationListRow[]> {
    return this.reads.read<ConversationListRow>(callerId, {
      name: 'chat_conversations',
      text: CONVERSATIONS_SQL,
      values: [callerId, max],
    });
  }

  /** The caller's unread messages over their open conversations (on the read replica as `list`). */
  async unreadCount(callerId: string): Promise<number> {
    const [row] = await this.reads.read<{ count: number }>(callerId, {
      name: 'chat_unread_count',
      text: UNREAD_COUNT_SQL,
      values: [callerId],
    });
    return row?.count ?? 0;
  }

  /** The pair's (a < b) open conversation as the caller sees it, or null. */
  async findOpen(a: string, b: string, callerId: string): Promise<ConversationRow | null> {
    const [row] = await namedQuery<ConversationRow>(this.dataSource, 'chat_conversation', CONVERSATION_SQL, [
      a,
      b,
      callerId,
    ]);
    return row ?? null;
  }

  /**
   * MARK_READ_SQL: the caller's side of the pair's open conversation read up to its last message;
   * the position now and before (equal: nothing moved), or null without an open conversation.
   */
  async markRead(
    a: string,
    b: string,
    callerId: string,
  ): Promise<{ lastSeq: number; previous: number } | null> {
    const [row] = await namedQuery<{ last_seq: number; previous: number }>(
      this.dataSource,
      'chat_mark_read',
      MARK_READ_SQL,
      [a, b, callerId],
    );
    return row ? { lastSeq: row.last_seq, previous: row.previous } : null;
  }

  /** OPEN_PAIR_SQL: whether typing may pass in the pair (a < b), and its match's pair version. */
  async openPair(a: string, b: string): Promise<{ open: boolean; matchPairVersion: number | null }> {
    const [row] = await namedQuery<{ open: boolean; match_pair_version: number | null }>(
      this.dataSource,
      'chat_open_pair',
      OPEN_PAIR_SQL,
      [a, b],
    );
    return { open: row?.open ?? false, matchPairVersion: row?.match_pair_version ?? null };
  }

  /** Erasure: the member's conversations, row-locked in id order (a send waits, then finds no such pair). */
  lockConversationsOf(
    manager: EntityManager,
    userId: string,
  ): Promise<{ id: string; member_a: string; member_b: string }[]> {
    return manager.query(LOCK_CONVERSATIONS_OF_SQL, [userId]);
  }

  async delete(manager: EntityManager, conversationId: string): Promise<void> {
    await manager.query(DELETE_CONVERSATION_SQL, [conversationId]);
  }

  /**
   * ANONYMISE_CONVERSATION_SQL, then the parked seqs flipped back: the conversation kept for the
   * other member under `anonymousId` in place of the deleted member, as the pair (a, b).
   */
  async anonymise(
    manager: EntityManager,
    conversationId: string,
    userId: string,
    anonymousId: string,
    a: string,
    b: string,
  ): Promise<void> {
    await manager.query(ANONYMISE_CONVERSATION_SQL, [conversationId, userId, anonymousId, a, b]);
    await manager.query(UNPARK_SEQS_SQL, [conversationId]);
  }

  /** EXPORT_SQL: the member's conversations and messages, one row a message (or a conversation without any). */
  exportRowsOf(userId: string): Promise<ConversationExportRow[]> {
    return this.dataSource.query(EXPORT_SQL, [userId]);
  }
}

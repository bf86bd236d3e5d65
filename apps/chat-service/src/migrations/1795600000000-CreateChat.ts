import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat-service's own tables (issue 9, docs/adr/0013-chat-delivery.md).
 *
 * - `chat_member`: the name and picture conversations show of a member, from profile.updated,
 *   written only by a newer aggregate version (`version`).
 * - `conversation`: one per matched pair, stored once with `member_a < member_b`; opened by
 *   match.created, closed (`closed_at`) by the safety issues later. It carries the pair's message
 *   counter (`last_seq`, taken under the row lock by every send), the last message shown in the
 *   list, and for each side the sequence it has read up to and its unread counter.
 * - `message`: numbered 1, 2, 3, ... per conversation (`seq`), unique per (sender, client id) so a
 *   retried send finds the stored message.
 *
 * The two `conversation_member_*_activity_idx` partial indexes list one member's open conversations
 * newest activity first, from either side of the pair (the list query is a UNION ALL of both).
 */
export class CreateChat1795600000000 implements MigrationInterface {
  name = 'CreateChat1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE chat_member (
      user_id uuid PRIMARY KEY,
      name text NULL,
      profile_picture text NULL,
      version int NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE conversation (
      id uuid PRIMARY KEY,
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      match_id uuid NOT NULL,
      matched_at timestamptz NOT NULL,
      closed_at timestamptz NULL,
      last_seq int NOT NULL DEFAULT 0,
      last_message_id uuid NULL,
      last_message_at timestamptz NULL,
      a_read_seq int NOT NULL DEFAULT 0,
      b_read_seq int NOT NULL DEFAULT 0,
      a_unread int NOT NULL DEFAULT 0,
      b_unread int NOT NULL DEFAULT 0,
      CONSTRAINT conversation_pair_order_check CHECK (member_a < member_b),
      CONSTRAINT conversation_pair_key UNIQUE (member_a, member_b)
    )`);
    await q.query(`CREATE INDEX conversation_member_a_activity_idx
      ON conversation (member_a, (coalesce(last_message_at, matched_at)) DESC) WHERE closed_at IS NULL`);
    await q.query(`CREATE INDEX conversation_member_b_activity_idx
      ON conversation (member_b, (coalesce(last_message_at, matched_at)) DESC) WHERE closed_at IS NULL`);
    await q.query(`CREATE TABLE message (
      id uuid PRIMARY KEY,
      conversation_id uuid NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
      seq int NOT NULL,
      sender_id uuid NOT NULL,
      recipient_id uuid NOT NULL,
      client_id text NOT NULL,
      content text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT message_conversation_seq_key UNIQUE (conversation_id, seq),
      CONSTRAINT message_sender_client_key UNIQUE (sender_id, client_id)
    )`);
    // sync_messages `since`: the messages of one conversation after a time.
    await q.query('CREATE INDEX message_conversation_created_idx ON message (conversation_id, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS message');
    await q.query('DROP TABLE IF EXISTS conversation');
    await q.query('DROP TABLE IF EXISTS chat_member');
  }
}

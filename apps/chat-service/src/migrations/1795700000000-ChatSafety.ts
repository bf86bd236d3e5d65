import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Safety's pair events in chat (issue 10, docs/adr/0013-chat-delivery.md "Safety").
 *
 * - `chat_pair`: what chat knows of a pair of members from safety's pair events (user.blocked,
 *   user.unblocked, match.ended), kept even when the pair has no conversation yet (events from
 *   safety and from matching arrive in either order): `blocked` (one of the two blocks the other)
 *   and `ended_before`, the time of the newest pair event applied — every pair event means "the
 *   pair has no match now", so a match created before it is over.
 * - `ended_match`: each match a pair event named as ended, so its match.created (late, or again)
 *   never reopens the conversation.
 * - `conversation.history_from_seq`: a conversation reopened by a new match after it was closed
 *   shows its members only the messages after this seq; the older ones stay for moderators
 *   (the internal pair snapshot route). Seqs keep growing across the reopen.
 */
export class ChatSafety1795700000000 implements MigrationInterface {
  name = 'ChatSafety1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE chat_pair (
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      blocked boolean NOT NULL DEFAULT false,
      ended_before timestamptz NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT chat_pair_pkey PRIMARY KEY (member_a, member_b),
      CONSTRAINT chat_pair_order_check CHECK (member_a < member_b)
    )`);
    await q.query(`CREATE TABLE ended_match (
      match_id uuid PRIMARY KEY,
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      ended_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('ALTER TABLE conversation ADD COLUMN history_from_seq int NOT NULL DEFAULT 0');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation DROP COLUMN IF EXISTS history_from_seq');
    await q.query('DROP TABLE IF EXISTS ended_match');
    await q.query('DROP TABLE IF EXISTS chat_pair');
  }
}

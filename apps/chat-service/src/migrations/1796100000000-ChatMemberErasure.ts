import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's account deletion (issue 12, docs/adr/0016-member-data.md, README "Member data"):
 * `conversation.anonymised_at` is when one of its two members was erased. The conversation stays
 * for the other member under a fresh id for the deleted one ('Unknown User'): listed and readable
 * like an open one, but no message can be sent in it (SEND_SQL) and no typing relayed.
 */
export class ChatMemberErasure1796100000000 implements MigrationInterface {
  name = 'ChatMemberErasure1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation ADD COLUMN anonymised_at timestamptz NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation DROP COLUMN IF EXISTS anonymised_at');
  }
}

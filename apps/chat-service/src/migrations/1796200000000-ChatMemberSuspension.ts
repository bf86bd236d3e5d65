import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's suspension (issue 13): `chat_member.suspended`, from auth-service's user.suspended /
 * user.unsuspended. While set, no message is stored to or from the member and no typing relayed.
 */
export class ChatMemberSuspension1796200000000 implements MigrationInterface {
  name = 'ChatMemberSuspension1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE chat_member ADD COLUMN suspended boolean NOT NULL DEFAULT false');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE chat_member DROP COLUMN IF EXISTS suspended');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's suspension (issue 13): `notification_member.suspended`, from auth-service's
 * user.suspended / user.unsuspended. While set, nothing is pushed to the member or about them.
 */
export class NotificationMemberSuspension1796300000000 implements MigrationInterface {
  name = 'NotificationMemberSuspension1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE notification_member ADD COLUMN suspended boolean NOT NULL DEFAULT false');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE notification_member DROP COLUMN IF EXISTS suspended');
  }
}

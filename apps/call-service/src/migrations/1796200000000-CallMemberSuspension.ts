import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A member's suspension (issue 13): `call_member.suspended`, from auth-service's user.suspended /
 * user.unsuspended. While set, no call to or from the member is set up (PAIR_CALLABLE_SQL).
 */
export class CallMemberSuspension1796200000000 implements MigrationInterface {
  name = 'CallMemberSuspension1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE call_member ADD COLUMN suspended boolean NOT NULL DEFAULT false');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE call_member DROP COLUMN IF EXISTS suspended');
  }
}

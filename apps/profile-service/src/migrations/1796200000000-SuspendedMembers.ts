import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * auth-service's suspension as profile-service needs it (issue 13): one `suspended_member` row
 * per suspended member, kept from user.suspended and user.unsuspended. `GET /api/profile/:userId`
 * reads it by primary key and answers other members 404 for a suspended member's profile.
 */
export class SuspendedMembers1796200000000 implements MigrationInterface {
  name = 'SuspendedMembers1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE suspended_member (
      user_id uuid PRIMARY KEY,
      suspended_at timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS suspended_member');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Member activity (issue 13): `member_activity_day`, one row per member and UTC day they used the
 * app (the once-a-day `member.active` fact is written when its row is), and the account's last
 * active moment `users.last_active_at` (admin user detail, statistics). Rows go with the account
 * (ON DELETE CASCADE, and the erasure deletes them first).
 */
export class MemberActivity1796400000000 implements MigrationInterface {
  name = 'MemberActivity1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN last_active_at timestamptz NULL');
    await q.query(`CREATE TABLE member_activity_day (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      day date NOT NULL,
      at timestamptz NOT NULL,
      PRIMARY KEY (user_id, day)
    )`);
    // The statistics count members seen within a window.
    await q.query(
      'CREATE INDEX users_last_active_idx ON users (last_active_at) WHERE last_active_at IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS users_last_active_idx');
    await q.query('DROP TABLE IF EXISTS member_activity_day');
    await q.query('ALTER TABLE users DROP COLUMN IF EXISTS last_active_at');
  }
}

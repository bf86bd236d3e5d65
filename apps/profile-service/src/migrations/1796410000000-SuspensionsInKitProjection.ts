import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * profile-service's suspensions move into the kit's projection (docs/adr/0030-pair-and-suspension-
 * projection.md): `suspended_member`'s rows are copied into `kit_member_suspension` (the kit's
 * migration created it just before; the same rows, ids and times), then the table gives way to a
 * view of the kit's table under its old name and columns. A replica of the previous release still
 * running during the roll reads and writes the kit's table through the view (a plain view of one
 * table takes INSERT ... ON CONFLICT and DELETE), so nothing either release applies is lost. A
 * later deploy drops the view.
 */
export class SuspensionsInKitProjection1796410000000 implements MigrationInterface {
  name = 'SuspensionsInKitProjection1796410000000';

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy or, after it,
    // through the view.
    await q.query('LOCK TABLE suspended_member IN EXCLUSIVE MODE');
    await q.query(`INSERT INTO kit_member_suspension (user_id, suspended_at)
      SELECT user_id, suspended_at FROM suspended_member
      ON CONFLICT (user_id) DO NOTHING`);
    await q.query('DROP TABLE suspended_member');
    await q.query('CREATE VIEW suspended_member AS SELECT user_id, suspended_at FROM kit_member_suspension');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW IF EXISTS suspended_member');
    await q.query(`CREATE TABLE suspended_member (
      user_id uuid PRIMARY KEY,
      suspended_at timestamptz NOT NULL
    )`);
    await q.query('INSERT INTO suspended_member (user_id, suspended_at) SELECT user_id, suspended_at FROM kit_member_suspension');
  }
}

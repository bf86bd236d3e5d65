import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * profile-service's block state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md): `blocked_pair`'s rows are copied into `kit_pair` (the kit's migration
 * created it just before; the same ordered pairs and `blocked_by`; no version or end time, which
 * profile never kept), then the table gives way to a view of the kit's table under its old name and
 * columns, through which a replica of the previous release still running during the roll reads and
 * writes the kit's table (a plain view of one table takes INSERT ... ON CONFLICT and DELETE). The
 * view shows every pair row, also one the new release keeps after an unblock (`blocked_by` empty):
 * such a replica then reads that pair as blocked until it is replaced, failing closed, as it would
 * have before the unblock reached it. A later deploy drops the view.
 */
export class BlocksInKitProjection1796420000000 implements MigrationInterface {
  name = 'BlocksInKitProjection1796420000000';

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy or, after it,
    // through the view.
    await q.query('LOCK TABLE blocked_pair IN EXCLUSIVE MODE');
    await q.query(`INSERT INTO kit_pair (member_a, member_b, blocked_by, updated_at)
      SELECT user_a, user_b, blocked_by, updated_at FROM blocked_pair
      ON CONFLICT (member_a, member_b) DO NOTHING`);
    await q.query('DROP TABLE blocked_pair');
    await q.query(`CREATE VIEW blocked_pair AS
      SELECT member_a AS user_a, member_b AS user_b, blocked_by, updated_at FROM kit_pair`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW IF EXISTS blocked_pair');
    await q.query(`CREATE TABLE blocked_pair (
      user_a uuid NOT NULL,
      user_b uuid NOT NULL,
      blocked_by uuid[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_a, user_b),
      CONSTRAINT blocked_pair_order_check CHECK (user_a < user_b),
      CONSTRAINT blocked_pair_blocked_by_check CHECK (cardinality(blocked_by) > 0)
    )`);
    await q.query(`INSERT INTO blocked_pair (user_a, user_b, blocked_by, updated_at)
      SELECT member_a, member_b, blocked_by, updated_at FROM kit_pair WHERE cardinality(blocked_by) > 0`);
  }
}

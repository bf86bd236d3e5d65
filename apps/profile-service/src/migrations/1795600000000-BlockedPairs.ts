import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Safety's block state as profile-service needs it (issue 10): one `blocked_pair` row per pair of
 * members of whom at least one blocks the other (`blocked_by`, never empty), kept from user.blocked
 * and user.unblocked (each carries the pair's whole state). `GET /api/profile/:userId` reads it by
 * primary key and answers a member of a blocked pair 404, as for an unknown member.
 */
export class BlockedPairs1795600000000 implements MigrationInterface {
  name = 'BlockedPairs1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE blocked_pair (
      user_a uuid NOT NULL,
      user_b uuid NOT NULL,
      blocked_by uuid[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_a, user_b),
      CONSTRAINT blocked_pair_order_check CHECK (user_a < user_b),
      CONSTRAINT blocked_pair_blocked_by_check CHECK (cardinality(blocked_by) > 0)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS blocked_pair');
  }
}

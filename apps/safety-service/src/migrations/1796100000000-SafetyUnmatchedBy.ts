import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who ended the pair's match by an unmatch, and when (issue 12: a member's data export lists the
 * unmatches they made). Only an unmatch writes them; a block that ends a match does not (it is a
 * block, exported as one). The newest unmatch of the pair wins; before this migration: null.
 */
export class SafetyUnmatchedBy1796100000000 implements MigrationInterface {
  name = 'SafetyUnmatchedBy1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE pair ADD COLUMN unmatched_by uuid NULL');
    await q.query('ALTER TABLE pair ADD COLUMN unmatched_at timestamptz NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE pair DROP COLUMN IF EXISTS unmatched_at');
    await q.query('ALTER TABLE pair DROP COLUMN IF EXISTS unmatched_by');
  }
}

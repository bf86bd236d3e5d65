import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin area (issue 13): the user detail counts reports about a member (`reported_id`; the
 * reporter's side already has report_reporter_reported_idx), and the report list reads newest first
 * whatever the status.
 */
export class SafetyReportAdmin1796400000000 implements MigrationInterface {
  name = 'SafetyReportAdmin1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS report_reported_idx ON report (reported_id)');
    await q.query('CREATE INDEX IF NOT EXISTS report_created_idx ON report (created_at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS report_created_idx');
    await q.query('DROP INDEX IF EXISTS report_reported_idx');
  }
}

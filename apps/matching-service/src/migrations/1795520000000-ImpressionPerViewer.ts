import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One impression row per viewer and member shown (security review, ADR 0012): a new serving of the
 * same member to the same viewer moves the row's time, score and model version forward instead of
 * adding a row. Exposure (how many viewers were shown a member lately) then counts each viewer
 * once, so one member reloading Discover in a loop can neither push the members of their pool down
 * everyone else's ranking nor grow the table without bound.
 */
export class ImpressionPerViewer1795520000000 implements MigrationInterface {
  name = 'ImpressionPerViewer1795520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM impression i USING impression newer
      WHERE newer.viewer_id = i.viewer_id AND newer.target_id = i.target_id
        AND (newer.served_at, newer.id) > (i.served_at, i.id)`);
    await q.query('CREATE UNIQUE INDEX impression_viewer_target_key ON impression (viewer_id, target_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS impression_viewer_target_key');
  }
}

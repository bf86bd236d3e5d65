import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Photo review with the offline classifier (issue 13): each photo's five class scores, its risk
 * (Porn + Hentai + Sexy), when it was scored, and whether it is hidden from other members (the
 * owner always sees their photos). Photos already there stay visible and keep their moderation
 * status. The admin's queue (pending, riskiest first, then unscored oldest first) has its index.
 */
export class PhotoReview1796300000000 implements MigrationInterface {
  name = 'PhotoReview1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE photos
      ADD COLUMN scores jsonb,
      ADD COLUMN risk_score double precision,
      ADD COLUMN scanned_at timestamptz,
      ADD COLUMN hidden_from_members boolean NOT NULL DEFAULT false`);
    await q.query(
      "CREATE INDEX photos_review_queue_idx ON photos (risk_score DESC NULLS LAST, created_at) WHERE moderation_status = 'pending'",
    );
    await q.query("CREATE INDEX photos_moderated_at_idx ON photos (moderated_at) WHERE moderated_at IS NOT NULL");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS photos_moderated_at_idx');
    await q.query('DROP INDEX IF EXISTS photos_review_queue_idx');
    await q.query(`ALTER TABLE photos
      DROP COLUMN IF EXISTS hidden_from_members,
      DROP COLUMN IF EXISTS scanned_at,
      DROP COLUMN IF EXISTS risk_score,
      DROP COLUMN IF EXISTS scores`);
  }
}

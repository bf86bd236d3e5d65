import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scoring model's tables: every fitted model as JSON (kept for inspection; the newest is
 * active) and what it learned per member (factors and like counts, tagged with the model version
 * they belong to, so a ranking never mixes two fits).
 */
export class CreateScoring1795510000000 implements MigrationInterface {
  name = 'CreateScoring1795510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE scoring_model (
      version varchar(40) PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now(),
      trained_on int NOT NULL,
      params jsonb NOT NULL,
      metrics jsonb NOT NULL DEFAULT '{}'
    )`);
    await q.query('CREATE INDEX scoring_model_created_at_idx ON scoring_model (created_at DESC)');
    await q.query(`CREATE TABLE member_factor (
      user_id uuid PRIMARY KEY,
      model_version varchar(40) NOT NULL,
      taste real[] NOT NULL DEFAULT '{}',
      appeal real[] NOT NULL DEFAULT '{}',
      likes_given int NOT NULL DEFAULT 0,
      swipes_given int NOT NULL DEFAULT 0,
      likes_received int NOT NULL DEFAULT 0,
      swipes_received int NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX member_factor_model_version_idx ON member_factor (model_version)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS member_factor');
    await q.query('DROP TABLE IF EXISTS scoring_model');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every match ever made (issue 13: the admin statistics' "total matches"). The match table keeps
 * only live matches (an unmatch, a block or an erasure deletes the row), so the like that makes a
 * match also writes its id and time here, and nothing deletes them. No member ids: nothing
 * personal stays after an erasure. Filled from the live matches on migration (ended ones before
 * it are not known any more).
 */
export class MatchHistory1796400000000 implements MigrationInterface {
  name = 'MatchHistory1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE match_history (
      match_id uuid PRIMARY KEY,
      created_at timestamptz NOT NULL
    )`);
    await q.query(
      'INSERT INTO match_history (match_id, created_at) SELECT id, created_at FROM match ON CONFLICT DO NOTHING',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS match_history');
  }
}

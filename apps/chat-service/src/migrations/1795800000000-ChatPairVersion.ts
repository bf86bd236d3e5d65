import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pair versions instead of clocks (issue 10, docs/adr/0014-safety.md):
 * - `chat_pair.version`: the version of the newest pair event applied (safety numbers a pair's
 *   events 1, 2, 3 ...);
 * - `conversation.match_pair_version`: the pair version matching had applied when it made the
 *   conversation's match (`match.created.pairVersion`). Every pair event ends the pair's match,
 *   so the match is live only while no pair event of a higher version has been applied.
 * Both stay null for what was written before: those fall back to comparing times.
 */
export class ChatPairVersion1795800000000 implements MigrationInterface {
  name = 'ChatPairVersion1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE chat_pair ADD COLUMN version int NULL');
    await q.query('ALTER TABLE conversation ADD COLUMN match_pair_version int NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE conversation DROP COLUMN IF EXISTS match_pair_version');
    await q.query('ALTER TABLE chat_pair DROP COLUMN IF EXISTS version');
  }
}

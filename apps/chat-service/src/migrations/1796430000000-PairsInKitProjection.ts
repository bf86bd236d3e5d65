import type { MigrationInterface, QueryRunner } from 'typeorm';
import { pairTableIntoKit } from '@mate/server-kit';

/**
 * chat-service's pair state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md): every `chat_pair` row is copied into `kit_pair` and every
 * `ended_match` row into `kit_ended_match` (the kit's migrations created both just before). Which
 * of the two blocks was never kept here, only that one does: a blocked pair is copied as blocked by
 * both, so it reads as blocked (all the live-match rule asks) until the pair's next event writes
 * its whole state.
 *
 * A replica of the previous release still running during the roll:
 * - writes `chat_pair`: a trigger carries each of its writes (a pair event's state, an erasure) into
 *   `kit_pair`, so no pair event it applies is lost (until it is replaced, such a replica reads only
 *   the old table: it may open a conversation across a block a new replica applied, for the length
 *   of the roll, as it would have before the event reached it; the pair's next event closes it).
 *   The new release still deletes the member's old rows on erasure;
 * - reads and writes `ended_match`, which becomes a view of `kit_ended_match` (the same columns but
 *   `ended_at`, which nothing reads).
 * A later deploy drops the trigger, the view and `chat_pair`.
 */
export class PairsInKitProjection1796430000000 implements MigrationInterface {
  name = 'PairsInKitProjection1796430000000';
  private readonly pair = pairTableIntoKit({ table: 'chat_pair', endedBefore: true });

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy (copied) or
    // after the commit (carried by the trigger, or through the view).
    await q.query('LOCK TABLE chat_pair, ended_match IN ACCESS EXCLUSIVE MODE');
    // The pair table's function, trigger and copy are the kit's (pairTableIntoKit).
    for (const statement of this.pair.up) await q.query(statement);
    await q.query(`INSERT INTO kit_ended_match (match_id, member_a, member_b)
      SELECT match_id, member_a, member_b FROM ended_match
      ON CONFLICT (match_id) DO NOTHING`);
    await q.query('DROP TABLE ended_match');
    // A plain view of one table: the previous release's INSERT ... ON CONFLICT (match_id) and
    // DELETE go through to the kit's table.
    await q.query('CREATE VIEW ended_match AS SELECT match_id, member_a, member_b FROM kit_ended_match');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW IF EXISTS ended_match');
    await q.query(`CREATE TABLE ended_match (
      match_id uuid PRIMARY KEY,
      member_a uuid NOT NULL,
      member_b uuid NOT NULL,
      ended_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`INSERT INTO ended_match (match_id, member_a, member_b)
      SELECT match_id, member_a, member_b FROM kit_ended_match WHERE member_a IS NOT NULL AND member_b IS NOT NULL`);
    for (const statement of this.pair.down) await q.query(statement);
  }
}

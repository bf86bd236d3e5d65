import type { MigrationInterface, QueryRunner } from 'typeorm';
import { pairTableIntoKit } from '@mate/server-kit';

/**
 * call-service's pair state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md): every `call_pair` row is copied into `kit_pair` and every
 * `call_ended_match` row into `kit_ended_match` (the kit's migrations created both just before).
 * Which of the two blocks was never kept here, only that one does: a blocked pair is copied as
 * blocked by both, so it reads as blocked (all the callable rule asks) until the pair's next event
 * writes its whole state. An ended match is copied with its pair when call_match has the match,
 * else without (the kit's erasure finds it through call's own, CallMemberErasure).
 *
 * A replica of the previous release still running during the roll:
 * - writes `call_pair`: a trigger carries each of its writes (a pair event's state, an erasure) into
 *   `kit_pair`, so no pair event it applies is lost (until it is replaced, such a replica reads only
 *   the old table: it may let a pair call across a block a new replica applied, for the length of
 *   the roll, as it would have before the event reached it; the new replica ended their call). The
 *   new release still deletes the member's old rows on erasure;
 * - reads and writes `call_ended_match`, which becomes a view of `kit_ended_match` (an ended match
 *   it records has no pair there).
 * A later deploy drops the trigger, the view and `call_pair`.
 */
export class PairsInKitProjection1796430000000 implements MigrationInterface {
  name = 'PairsInKitProjection1796430000000';
  private readonly pair = pairTableIntoKit({ table: 'call_pair', endedBefore: true });

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy (copied) or
    // after the commit (carried by the trigger, or through the view).
    await q.query('LOCK TABLE call_pair, call_ended_match IN ACCESS EXCLUSIVE MODE');
    // The pair table's function, trigger and copy are the kit's (pairTableIntoKit).
    for (const statement of this.pair.up) await q.query(statement);
    await q.query(`INSERT INTO kit_ended_match (match_id, member_a, member_b)
      SELECT e.match_id, m.member_a, m.member_b FROM call_ended_match e LEFT JOIN call_match m ON m.match_id = e.match_id
      ON CONFLICT (match_id) DO NOTHING`);
    await q.query('DROP TABLE call_ended_match');
    // A plain view of one table: the previous release's INSERT ... ON CONFLICT DO NOTHING and
    // DELETE go through to the kit's table.
    await q.query('CREATE VIEW call_ended_match AS SELECT match_id FROM kit_ended_match');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW IF EXISTS call_ended_match');
    await q.query('CREATE TABLE call_ended_match (match_id uuid PRIMARY KEY)');
    await q.query('INSERT INTO call_ended_match (match_id) SELECT match_id FROM kit_ended_match');
    for (const statement of this.pair.down) await q.query(statement);
  }
}

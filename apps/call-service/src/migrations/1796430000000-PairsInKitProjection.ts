import type { MigrationInterface, QueryRunner } from 'typeorm';

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

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy (copied) or
    // after the commit (carried by the trigger, or through the view).
    await q.query('LOCK TABLE call_pair, call_ended_match IN ACCESS EXCLUSIVE MODE');
    await q.query(`CREATE FUNCTION call_pair_to_kit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          DELETE FROM kit_pair WHERE member_a = OLD.member_a AND member_b = OLD.member_b;
        ELSE
          INSERT INTO kit_pair (member_a, member_b, blocked_by, ended_before, version)
            VALUES (NEW.member_a, NEW.member_b,
                    CASE WHEN NEW.blocked THEN ARRAY[NEW.member_a, NEW.member_b] ELSE '{}'::uuid[] END,
                    NEW.ended_before, NEW.version)
            ON CONFLICT (member_a, member_b) DO UPDATE
              SET blocked_by = CASE WHEN NOT NEW.blocked THEN '{}'::uuid[]
                                    WHEN cardinality(kit_pair.blocked_by) > 0 THEN kit_pair.blocked_by
                                    ELSE EXCLUDED.blocked_by END,
                  ended_before = greatest(kit_pair.ended_before, EXCLUDED.ended_before),
                  version = greatest(kit_pair.version, EXCLUDED.version), updated_at = now();
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER call_pair_to_kit
      AFTER INSERT OR UPDATE OR DELETE ON call_pair
      FOR EACH ROW EXECUTE FUNCTION call_pair_to_kit()`);
    await q.query(`INSERT INTO kit_pair (member_a, member_b, blocked_by, ended_before, version, updated_at)
      SELECT member_a, member_b, CASE WHEN blocked THEN ARRAY[member_a, member_b] ELSE '{}'::uuid[] END,
             ended_before, version, updated_at
        FROM call_pair
      ON CONFLICT (member_a, member_b) DO NOTHING`);
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
    await q.query('DROP TRIGGER IF EXISTS call_pair_to_kit ON call_pair');
    await q.query('DROP FUNCTION IF EXISTS call_pair_to_kit()');
    await q.query(`INSERT INTO call_pair (member_a, member_b, blocked, ended_before, version, updated_at)
      SELECT member_a, member_b, cardinality(blocked_by) > 0, ended_before, version, updated_at FROM kit_pair
      ON CONFLICT (member_a, member_b) DO UPDATE
        SET blocked = EXCLUDED.blocked, ended_before = EXCLUDED.ended_before, version = EXCLUDED.version`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

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

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy (copied) or
    // after the commit (carried by the trigger, or through the view).
    await q.query('LOCK TABLE chat_pair, ended_match IN ACCESS EXCLUSIVE MODE');
    await q.query(`CREATE FUNCTION chat_pair_to_kit() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await q.query(`CREATE TRIGGER chat_pair_to_kit
      AFTER INSERT OR UPDATE OR DELETE ON chat_pair
      FOR EACH ROW EXECUTE FUNCTION chat_pair_to_kit()`);
    await q.query(`INSERT INTO kit_pair (member_a, member_b, blocked_by, ended_before, version, updated_at)
      SELECT member_a, member_b, CASE WHEN blocked THEN ARRAY[member_a, member_b] ELSE '{}'::uuid[] END,
             ended_before, version, updated_at
        FROM chat_pair
      ON CONFLICT (member_a, member_b) DO NOTHING`);
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
    await q.query('DROP TRIGGER IF EXISTS chat_pair_to_kit ON chat_pair');
    await q.query('DROP FUNCTION IF EXISTS chat_pair_to_kit()');
    await q.query(`INSERT INTO chat_pair (member_a, member_b, blocked, ended_before, version, updated_at)
      SELECT member_a, member_b, cardinality(blocked_by) > 0, ended_before, version, updated_at FROM kit_pair
      ON CONFLICT (member_a, member_b) DO UPDATE
        SET blocked = EXCLUDED.blocked, ended_before = EXCLUDED.ended_before, version = EXCLUDED.version`);
  }
}

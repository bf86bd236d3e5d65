import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * notification-service's pair state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md): every `notification_pair` row is copied into `kit_pair` (the kit's
 * migration created it just before), with its version. Which of the two blocks was never kept
 * here, only that one does: a blocked pair is copied as blocked by both, so it reads as blocked
 * (all this service asks) until the pair's next event writes its whole state.
 *
 * A replica of the previous release still running during the roll writes `notification_pair`: a
 * trigger carries each of its writes (a pair event's state, an erasure) into `kit_pair`, so no pair
 * event it applies is lost. (Until it is replaced, such a replica reads only the old table: it may
 * push across a block a new replica applied, for the length of the roll, as it would have before
 * the event reached it.) The new release still deletes the member's old rows on erasure. A later
 * deploy drops the trigger and the table.
 */
export class PairsInKitProjection1796420000000 implements MigrationInterface {
  name = 'PairsInKitProjection1796420000000';

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy (copied) or
    // after the commit (carried by the trigger).
    await q.query('LOCK TABLE notification_pair IN EXCLUSIVE MODE');
    await q.query(`CREATE FUNCTION notification_pair_to_kit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          DELETE FROM kit_pair WHERE member_a = OLD.member_a AND member_b = OLD.member_b;
        ELSE
          INSERT INTO kit_pair (member_a, member_b, blocked_by, version)
            VALUES (NEW.member_a, NEW.member_b,
                    CASE WHEN NEW.blocked THEN ARRAY[NEW.member_a, NEW.member_b] ELSE '{}'::uuid[] END, NEW.version)
            ON CONFLICT (member_a, member_b) DO UPDATE
              SET blocked_by = CASE WHEN NOT NEW.blocked THEN '{}'::uuid[]
                                    WHEN cardinality(kit_pair.blocked_by) > 0 THEN kit_pair.blocked_by
                                    ELSE EXCLUDED.blocked_by END,
                  version = greatest(kit_pair.version, EXCLUDED.version), updated_at = now();
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER notification_pair_to_kit
      AFTER INSERT OR UPDATE OR DELETE ON notification_pair
      FOR EACH ROW EXECUTE FUNCTION notification_pair_to_kit()`);
    await q.query(`INSERT INTO kit_pair (member_a, member_b, blocked_by, version, updated_at)
      SELECT member_a, member_b, CASE WHEN blocked THEN ARRAY[member_a, member_b] ELSE '{}'::uuid[] END, version, updated_at
        FROM notification_pair
      ON CONFLICT (member_a, member_b) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS notification_pair_to_kit ON notification_pair');
    await q.query('DROP FUNCTION IF EXISTS notification_pair_to_kit()');
    await q.query(`INSERT INTO notification_pair (member_a, member_b, blocked, version, updated_at)
      SELECT member_a, member_b, cardinality(blocked_by) > 0, version, updated_at FROM kit_pair
      ON CONFLICT (member_a, member_b) DO UPDATE SET blocked = EXCLUDED.blocked, version = EXCLUDED.version`);
  }
}

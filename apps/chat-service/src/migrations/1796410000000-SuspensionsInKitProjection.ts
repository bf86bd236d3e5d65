import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat-service's suspensions move into the kit's projection (docs/adr/0030-pair-and-suspension-
 * projection.md): every member `chat_member.suspended` holds is copied into `kit_member_suspension`
 * (the kit's migration created it just before). The column kept no time, so the row's last change
 * stands for when the suspension began (nothing reads that time yet).
 *
 * A replica of the previous release still running during the roll writes the column: a trigger
 * carries each of its writes (a suspension, an unsuspension, an erasure) into the kit's table, so
 * none it applies is lost. (Until it is replaced, such a replica reads only the column: it may store
 * a message to or from a member whose suspension a new replica applied, for the length of the roll,
 * as it would have before the event reached it.) A later deploy drops the triggers and the column.
 */
export class SuspensionsInKitProjection1796410000000 implements MigrationInterface {
  name = 'SuspensionsInKitProjection1796410000000';

  async up(q: QueryRunner): Promise<void> {
    // The previous release writes the column only when it applies a suspension state (an upsert
    // of `suspended`); its other inserts (a name and picture, a deleted member's stand-in) leave it
    // at the default, NULL from now on, so the trigger tells the two apart. NULL reads as not
    // suspended there, as false did.
    await q.query('ALTER TABLE chat_member ALTER COLUMN suspended DROP NOT NULL, ALTER COLUMN suspended SET DEFAULT NULL');
    await q.query(`CREATE FUNCTION chat_member_suspension_to_kit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          DELETE FROM kit_member_suspension WHERE user_id = OLD.user_id;
        ELSIF NEW.suspended THEN
          INSERT INTO kit_member_suspension (user_id, suspended_at) VALUES (NEW.user_id, now())
            ON CONFLICT (user_id) DO NOTHING;
        ELSE
          DELETE FROM kit_member_suspension WHERE user_id = NEW.user_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER chat_member_suspension_to_kit
      AFTER INSERT OR UPDATE OF suspended ON chat_member
      FOR EACH ROW WHEN (NEW.suspended IS NOT NULL) EXECUTE FUNCTION chat_member_suspension_to_kit()`);
    // The previous release's erasure deletes the member's row: their kit row goes with it.
    await q.query(`CREATE TRIGGER chat_member_erasure_to_kit
      AFTER DELETE ON chat_member
      FOR EACH ROW EXECUTE FUNCTION chat_member_suspension_to_kit()`);
    // The copy last: the ALTER above holds the table until the commit, so a write of the previous
    // release lands either before the copy (copied) or after the commit (carried by the trigger).
    await q.query(`INSERT INTO kit_member_suspension (user_id, suspended_at)
      SELECT user_id, updated_at FROM chat_member WHERE suspended
      ON CONFLICT (user_id) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS chat_member_erasure_to_kit ON chat_member');
    await q.query('DROP TRIGGER IF EXISTS chat_member_suspension_to_kit ON chat_member');
    await q.query('DROP FUNCTION IF EXISTS chat_member_suspension_to_kit()');
    await q.query(`UPDATE chat_member m SET suspended = EXISTS (SELECT 1 FROM kit_member_suspension k WHERE k.user_id = m.user_id)`);
    await q.query('ALTER TABLE chat_member ALTER COLUMN suspended SET DEFAULT false, ALTER COLUMN suspended SET NOT NULL');
  }
}

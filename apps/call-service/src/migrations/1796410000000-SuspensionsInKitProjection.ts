import type { MigrationInterface, QueryRunner } from 'typeorm';
import { suspensionColumnIntoKit } from '@mate/server-kit';

/**
 * call-service's suspensions move into the kit's projection (docs/adr/0030-pair-and-suspension-
 * projection.md): every member `call_member.suspended` holds is copied into `kit_member_suspension`
 * (the kit's migration created it just before). The column kept no time, so the row's last change
 * stands for when the suspension began (nothing reads that time yet).
 *
 * A replica of the previous release still running during the roll writes the column: a trigger
 * carries each of its writes (a suspension, an unsuspension, an erasure) into the kit's table, so
 * none it applies is lost. (Until it is replaced, such a replica reads only the column: it may let
 * a member call whose suspension a new replica applied, for the length of the roll, as it would
 * have before the event reached it; the new replica has ended their calls.) A later deploy drops
 * the triggers and the column.
 */
export class SuspensionsInKitProjection1796410000000 implements MigrationInterface {
  name = 'SuspensionsInKitProjection1796410000000';

  // The previous release writes the column only when it applies a suspension state (an upsert
  // of `suspended`); its other inserts (a name, a picture) leave it at the default, NULL from now
  // on, so the trigger tells the two apart. NULL reads as not suspended there, as false did.
  // The statements are the kit's, shared with the other services (suspensionColumnIntoKit).
  private readonly statements = suspensionColumnIntoKit({
    table: 'call_member',
    idColumn: 'user_id',
    column: 'suspended',
  });

  async up(q: QueryRunner): Promise<void> {
    for (const statement of this.statements.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of this.statements.down) await q.query(statement);
  }
}

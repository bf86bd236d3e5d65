import { suspensionColumnIntoKit, ProjectionSwitchMigration } from '@mate/server-kit';

/**
 * call-service's suspensions move into the kit's projection (docs/adr/0030-pair-and-suspension-
 * projection.md) with the kit's statements (suspensionColumnIntoKit: the rows copied, a trigger
 * carrying the previous release's writes during the roll). Its other inserts into `call_member` (a
 * name, a picture) leave `suspended` at its new default, NULL, which reads as not suspended there.
 * Until it is replaced, a replica of the previous release reads only the column: it may let a
 * member call whose suspension a new replica applied, for the length of the roll, as it would have
 * before the event reached it; the new replica has ended their calls. A later deploy drops the
 * triggers and the column.
 */
export class SuspensionsInKitProjection1796410000000 extends ProjectionSwitchMigration {
  name = 'SuspensionsInKitProjection1796410000000';

  protected readonly statements = suspensionColumnIntoKit({
    table: 'call_member',
    idColumn: 'user_id',
    column: 'suspended',
  });
}

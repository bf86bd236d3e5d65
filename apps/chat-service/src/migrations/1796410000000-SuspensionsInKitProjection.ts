import { suspensionColumnIntoKit, ProjectionSwitchMigration } from '@mate/server-kit';

/**
 * chat-service's suspensions move into the kit's projection (docs/adr/0030-pair-and-suspension-
 * projection.md) with the kit's statements (suspensionColumnIntoKit: the rows copied, a trigger
 * carrying the previous release's writes during the roll). Its other inserts into `chat_member` (a
 * name and picture, a deleted member's stand-in) leave `suspended` at its new default, NULL, which
 * reads as not suspended there. Until it is replaced, a replica of the previous release reads only
 * the column: it may store a message to or from a member whose suspension a new replica applied,
 * for the length of the roll, as it would have before the event reached it. A later deploy drops
 * the triggers and the column.
 */
export class SuspensionsInKitProjection1796410000000 extends ProjectionSwitchMigration {
  name = 'SuspensionsInKitProjection1796410000000';

  protected readonly statements = suspensionColumnIntoKit({
    table: 'chat_member',
    idColumn: 'user_id',
    column: 'suspended',
  });
}

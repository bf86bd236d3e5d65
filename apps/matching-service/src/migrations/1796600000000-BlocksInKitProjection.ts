import { blockedPairTableIntoKit, ProjectionSwitchMigration } from '@mate/server-kit';

/**
 * matching-service's block state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md), as profile-service's did: `blocked_pair`'s rows are copied into
 * `kit_pair`, then the old name is a view of the kit's table through which a replica of the
 * previous release still running during the roll reads and writes it. Such a replica reads a pair
 * unblocked since as blocked until it is replaced (no suggestion, like or pass of the two), failing
 * closed, as it would have before the unblock reached it. A later deploy drops the view. The
 * statements are the kit's (blockedPairTableIntoKit).
 */
export class BlocksInKitProjection1796600000000 extends ProjectionSwitchMigration {
  name = 'BlocksInKitProjection1796600000000';

  protected readonly statements = blockedPairTableIntoKit();
}

import { blockedPairTableIntoKit, ProjectionSwitchMigration } from '@mate/server-kit';

/**
 * profile-service's block state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md): `blocked_pair`'s rows are copied into `kit_pair`, then the old name
 * is a view of the kit's table through which a replica of the previous release still running during
 * the roll reads and writes it (failing closed on a pair unblocked since). A later deploy drops the
 * view. The statements are the kit's, shared with matching-service (blockedPairTableIntoKit).
 */
export class BlocksInKitProjection1796420000000 extends ProjectionSwitchMigration {
  name = 'BlocksInKitProjection1796420000000';

  protected readonly statements = blockedPairTableIntoKit();
}

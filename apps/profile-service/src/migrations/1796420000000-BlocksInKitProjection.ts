import type { MigrationInterface, QueryRunner } from 'typeorm';
import { blockedPairTableIntoKit } from '@mate/server-kit';

/**
 * profile-service's block state moves into the kit's pair projection (docs/adr/0030-pair-and-
 * suspension-projection.md): `blocked_pair`'s rows are copied into `kit_pair`, then the old name
 * is a view of the kit's table through which a replica of the previous release still running during
 * the roll reads and writes it (failing closed on a pair unblocked since). A later deploy drops the
 * view. The statements are the kit's, shared with matching-service (blockedPairTableIntoKit).
 */
export class BlocksInKitProjection1796420000000 implements MigrationInterface {
  name = 'BlocksInKitProjection1796420000000';

  private readonly statements = blockedPairTableIntoKit();

  async up(q: QueryRunner): Promise<void> {
    for (const statement of this.statements.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of this.statements.down) await q.query(statement);
  }
}

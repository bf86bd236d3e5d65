import type { MigrationInterface, QueryRunner } from 'typeorm';
import { pairTableIntoKit } from '@mate/server-kit';

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
  private readonly pair = pairTableIntoKit({ table: 'notification_pair', endedBefore: false });

  async up(q: QueryRunner): Promise<void> {
    // Held until the commit: a write of the previous release lands before the copy (copied) or
    // after the commit (carried by the trigger).
    await q.query('LOCK TABLE notification_pair IN EXCLUSIVE MODE');
    // The pair table's function, trigger and copy are the kit's (pairTableIntoKit).
    for (const statement of this.pair.up) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const statement of this.pair.down) await q.query(statement);
  }
}

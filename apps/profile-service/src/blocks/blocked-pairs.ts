import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { UserBlockedPayload, UserUnblockedPayload } from '@mate/contracts';

/**
 * Safety's block state in profile-service (issue 10): the pairs of whom at least one blocks the
 * other, from user.blocked and user.unblocked. The consumer applies only the newest version of each
 * pair and every pair event carries the pair's whole state (`blockedBy`), so each event writes it
 * whole: the row while anyone blocks, none once neither does.
 */
@Injectable()
export class BlockedPairs {
  constructor(private readonly dataSource: DataSource) {}

  async apply(manager: EntityManager, payload: UserBlockedPayload | UserUnblockedPayload): Promise<void> {
    // Read by the consumer against its catalogue class: the pair ascending, `blockedBy` of the two only.
    const [userA, userB] = payload.userIds;
    const { blockedBy } = payload;
    if (blockedBy.length > 0) {
      await manager.query(
        `INSERT INTO blocked_pair (user_a, user_b, blocked_by) VALUES ($1, $2, $3::uuid[])
         ON CONFLICT (user_a, user_b) DO UPDATE SET blocked_by = EXCLUDED.blocked_by, updated_at = now()`,
        [userA, userB, blockedBy],
      );
    } else {
      await manager.query('DELETE FROM blocked_pair WHERE user_a = $1 AND user_b = $2', [userA, userB]);
    }
  }

  /** Whether either of the two blocks the other (ids in any case; the pair is stored once, ascending). */
  async between(x: string, y: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM blocked_pair WHERE user_a = least($1::uuid, $2::uuid) AND user_b = greatest($1::uuid, $2::uuid)`,
      [x, y],
    );
    return rows.length > 0;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { UserDeletedPayload } from '@mate/contracts';
import { eraseMemberTraces, LOGGER } from '@mate/server-kit';
import { MemberRateLimiter } from '../matching/member-rate-limits';

/**
 * Erases a member from matching-service on `user.deleted` (issue 12, docs/adr/0016-member-data.md),
 * inside the consumer's transaction: their candidate row (profile and preferences projection), the
 * likes and passes they gave AND received, their matches, the impressions naming them either way,
 * what the ranking model learned of them, the block pairs naming them, their Discover counters and
 * the kit's traces. Nothing is kept for the other member here: chat keeps the conversation of a
 * match, and a like of the deleted member simply goes. Running it twice changes nothing.
 *
 * Writers that are not events and write rows naming another member are ordered with it:
 * - a like, a pass and an impression lock the target's candidate row (FOR KEY SHARE) in their one
 *   statement; this deletes that row FIRST, so such a write either commits before (and is deleted
 *   below) or waits and then finds no candidate (a like or pass answers 404, as for an unknown id);
 * - a refit publishing the model writes member_factor for every member it learned from: the table
 *   lock below waits for a publish under way (its rows are then deleted here), and a publish that
 *   starts meanwhile waits for this commit and then drops factors of members without a candidate.
 */
@Injectable()
export class MatchingErasure {
  constructor(
    private readonly rateLimits: MemberRateLimiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async erase(manager: EntityManager, { userId }: UserDeletedPayload): Promise<void> {
    await manager.query('DELETE FROM candidate WHERE user_id = $1', [userId]);
    // SHARE ROW EXCLUSIVE: conflicts with a publish's writes and with itself (two erasures queue
    // instead of deadlocking on the upgrade); rankings keep reading (ACCESS SHARE).
    await manager.query('LOCK TABLE member_factor IN SHARE ROW EXCLUSIVE MODE');
    await manager.query('DELETE FROM member_factor WHERE user_id = $1', [userId]);
    const swipes = await deletedCount(manager, 'DELETE FROM swipe WHERE swiper_id = $1 OR target_id = $1', userId);
    const matches = await deletedCount(manager, 'DELETE FROM match WHERE user_a = $1 OR user_b = $1', userId);
    const impressions = await deletedCount(manager, 'DELETE FROM impression WHERE viewer_id = $1 OR target_id = $1', userId);
    await manager.query('DELETE FROM blocked_pair WHERE $1::uuid IN (user_a, user_b) OR $1::uuid = ANY (blocked_by)', [
      userId,
    ]);
    await eraseMemberTraces(manager, userId);
    await this.rateLimits.forget(userId);
    // No id in the log: the erased member's id is kept nowhere.
    this.logger.info({ swipes, matches, impressions }, 'member erased from matching');
  }
}

/** Runs a DELETE of one member's rows and answers how many went. */
async function deletedCount(manager: EntityManager, deleteSql: string, userId: string): Promise<number> {
  const [{ n }]: { n: number }[] = await manager.query(
    `WITH gone AS (${deleteSql} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    [userId],
  );
  return n;
}

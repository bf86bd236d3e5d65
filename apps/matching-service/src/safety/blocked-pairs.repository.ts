import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

const SAVE_BLOCKERS = `INSERT INTO blocked_pair (user_a, user_b, blocked_by) VALUES ($1, $2, $3::uuid[])
         ON CONFLICT (user_a, user_b) DO UPDATE SET blocked_by = EXCLUDED.blocked_by, updated_at = now()`;

const FORGET_BLOCK = 'DELETE FROM blocked_pair WHERE user_a = $1 AND user_b = $2';

const ERASE_MEMBER_BLOCKS =
  'DELETE FROM blocked_pair WHERE $1::uuid IN (user_a, user_b) OR $1::uuid = ANY (blocked_by)';

/**
 * `blocked_pair`: the pairs in which anyone of the two blocks the other, as safety's pair events
 * say (the hard rules of the pool, likes, passes and rewind read it in their own statements).
 * Each method runs in the caller's transaction; pairs are ascending (`user_a < user_b`).
 */
@Injectable()
export class BlockedPairsRepository {
  /** The pair is blocked by `blockedBy` (one or both of the two), whatever it was before. */
  async saveBlockers(
    manager: EntityManager,
    userA: string,
    userB: string,
    blockedBy: readonly string[],
  ): Promise<void> {
    await manager.query(SAVE_BLOCKERS, [userA, userB, blockedBy]);
  }

  /** Neither of the two blocks the other any more. */
  async forgetBlock(manager: EntityManager, userA: string, userB: string): Promise<void> {
    await manager.query(FORGET_BLOCK, [userA, userB]);
  }

  /** Deletes every pair naming the member, as one of the two or as a blocker (their erasure). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_MEMBER_BLOCKS, [userId]);
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type MatchEndedPayload,
  type PairState,
  type UserBlockedPayload,
  type UserUnblockedPayload,
} from '@mate/contracts';
import { pairLockKey } from '../matching/pair-transaction';

/**
 * Safety's pair events in matching (issue 10). The consumer applies only the newest version of
 * each pair, and every pair event carries the pair's whole state, so each handler writes the
 * whole of it:
 *
 * - `blocked_pair` holds the pair while anyone of the two blocks the other (the hard rules leave
 *   such pairs out both ways: suggestions, likes, passes, rewind);
 * - the pair's match ends (its row is deleted: my-matches and stats count rows), whatever the
 *   event: a block unmatches, an unmatch ends the match, an unblock does not restore it;
 * - swipes stay, so an unmatched pair is not suggested again; only an unblock after which neither
 *   blocks the other deletes the pair's likes and passes both ways, so the two may be suggested
 *   to each other again (and must like each other anew to match).
 *
 * Each handler first takes the pair's lock (the one likes and passes take), so a like running at
 * the same time either commits before (its match is ended here) or runs after and sees the block.
 */
@Injectable()
export class PairStateWriter {
  async blocked(manager: EntityManager, payload: UserBlockedPayload): Promise<void> {
    await this.apply(manager, payload, { forgetSwipes: false });
  }

  async unblocked(manager: EntityManager, payload: UserUnblockedPayload): Promise<void> {
    await this.apply(manager, payload, { forgetSwipes: true });
  }

  async matchEnded(manager: EntityManager, payload: MatchEndedPayload): Promise<void> {
    await this.apply(manager, payload, { forgetSwipes: false });
  }

  private async apply(
    manager: EntityManager,
    // Read by the consumer against its catalogue class: the pair ascending, `blockedBy` of the two only.
    { userIds: [userA, userB], blockedBy }: PairState,
    { forgetSwipes }: { forgetSwipes: boolean },
  ): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock($1::bigint)', [pairLockKey(userA, userB).toString()]);
    if (blockedBy.length > 0) {
      await manager.query(
        `INSERT INTO blocked_pair (user_a, user_b, blocked_by) VALUES ($1, $2, $3::uuid[])
         ON CONFLICT (user_a, user_b) DO UPDATE SET blocked_by = EXCLUDED.blocked_by, updated_at = now()`,
        [userA, userB, blockedBy],
      );
    } else {
      await manager.query('DELETE FROM blocked_pair WHERE user_a = $1 AND user_b = $2', [userA, userB]);
      if (forgetSwipes) {
        await manager.query(
          `DELETE FROM swipe WHERE (swiper_id = $1 AND target_id = $2) OR (swiper_id = $2 AND target_id = $1)`,
          [userA, userB],
        );
      }
    }
    await manager.query('DELETE FROM match WHERE user_a = $1 AND user_b = $2', [userA, userB]);
  }
}

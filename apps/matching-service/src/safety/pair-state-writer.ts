import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type MatchEndedPayload,
  type PairState,
  type UserBlockedPayload,
  type UserUnblockedPayload,
} from '@mate/contracts';
import { MatchesRepository } from '../matching/matches.repository';
import { lockPair } from '../matching/pair-transaction';
import { SwipesRepository } from '../matching/swipes.repository';

/**
 * Safety's pair events in matching (issue 10). The consumer applies only the newest version of
 * each pair, and every pair event carries the pair's whole state. The kit's pair projection has
 * written it to `kit_pair` first, in this transaction (AppModule's `projections`: the hard rules
 * leave a pair of whom either blocks the other out both ways, in suggestions, likes, passes and
 * rewind); this is matching's own part of each event:
 *
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
  constructor(
    private readonly swipes: SwipesRepository,
    private readonly matches: MatchesRepository,
  ) {}

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
    await lockPair(manager, userA, userB);
    if (blockedBy.length === 0 && forgetSwipes) await this.swipes.forgetPairSwipes(manager, userA, userB);
    await this.matches.endPairMatch(manager, userA, userB);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { UserDeletedPayload } from '@mate/contracts';
import { eraseMemberTraces, LOGGER } from '@mate/server-kit';
import { CandidateRepository } from '../candidates/candidate.repository';
import { ImpressionRepository } from '../impressions/impression.repository';
import { MatchesRepository } from '../matching/matches.repository';
import { MemberRateLimiter } from '../matching/member-rate-limits';
import { SwipesRepository } from '../matching/swipes.repository';
import { ScoringRepository } from '../scoring/scoring.repository';

/**
 * Erases a member from matching-service on `user.deleted` (issue 12, docs/adr/0016-member-data.md),
 * inside the consumer's transaction: their candidate row (profile and preferences projection), the
 * likes and passes they gave AND received, their matches, the impressions naming them either way,
 * what the ranking model learned of them, their Discover counters and the kit's traces (the kit's
 * pair projection has forgotten the pairs naming them just before, in this transaction). Nothing is kept for the other member here: chat keeps the conversation of a
 * match, and a like of the deleted member simply goes. Running it twice changes nothing.
 *
 * Writers that are not events and write rows naming another member are ordered with it:
 * - a like, a pass and an impression lock the target's candidate row (FOR KEY SHARE) in their one
 *   statement; this deletes that row FIRST, so such a write either commits before (and is deleted
 *   below) or waits and then finds no candidate (a like or pass answers 404, as for an unknown id);
 * - a refit publishing the model writes member_factor for every member it learned from: the table
 *   lock ScoringRepository.eraseMember takes waits for a publish under way (its rows are then
 *   deleted here), and a publish that starts meanwhile waits for this commit and then drops
 *   factors of members without a candidate.
 */
@Injectable()
export class MatchingErasure {
  constructor(
    private readonly candidates: CandidateRepository,
    private readonly scoring: ScoringRepository,
    private readonly swipes: SwipesRepository,
    private readonly matches: MatchesRepository,
    private readonly impressions: ImpressionRepository,
    private readonly rateLimits: MemberRateLimiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async erase(manager: EntityManager, { userId }: UserDeletedPayload): Promise<void> {
    await this.candidates.erase(manager, userId);
    await this.scoring.eraseMember(manager, userId);
    const swipes = await this.swipes.eraseMember(manager, userId);
    const matches = await this.matches.eraseMember(manager, userId);
    const impressions = await this.impressions.eraseMember(manager, userId);
    await eraseMemberTraces(manager, userId);
    await this.rateLimits.forget(userId);
    // No id in the log: the erased member's id is kept nowhere.
    this.logger.info({ swipes, matches, impressions }, 'member erased from matching');
  }
}

import { Module } from '@nestjs/common';
import { pairGateProvider, RealtimeModule } from '@mate/server-kit';
import { CandidatesModule } from '../candidates/candidates.module';
import { ImpressionRepository } from '../impressions/impression.repository';
import { ScoringModule } from '../scoring';
import { MatchesRepository } from './matches.repository';
import { MatchesService } from './matches.service';
import { MatchGate } from './match-gate';
import { MatchNotifier } from './match-notifier';
import { MemberRateLimiter } from './member-rate-limits';
import { MatchingController } from './matching.controller';
import { POOL_START, randomPoolStart } from './pool-start';
import { SuggestionsService } from './suggestions.service';
import { SwipesRepository } from './swipes.repository';
import { SwipesService } from './swipes.service';

/** Discover's API: suggestions, likes, passes, rewinds, matches, stats, and the live match push. */
@Module({
  imports: [CandidatesModule, ScoringModule, RealtimeModule.forRoot()],
  controllers: [MatchingController],
  providers: [
    SuggestionsService,
    ImpressionRepository,
    SwipesService,
    SwipesRepository,
    MatchesService,
    MatchesRepository,
    MatchNotifier,
    MatchGate,
    pairGateProvider,
    MemberRateLimiter,
    { provide: POOL_START, useValue: randomPoolStart },
  ],
  // The member erasure removes the member's counters.
  exports: [MemberRateLimiter, SwipesRepository, MatchesRepository, ImpressionRepository],
})
export class MatchingModule {}

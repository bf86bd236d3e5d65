import { Module } from '@nestjs/common';
import { CandidatesModule } from '../candidates/candidates.module';
import { MatchingModule } from '../matching/matching.module';
import { SafetyModule } from '../safety/safety.module';
import { ScoringModule } from '../scoring';
import { MatchingErasure } from './matching-erasure';

/** Erasing a member (`user.deleted`); the export part is served by the kit's MemberDataModule. */
@Module({
  imports: [CandidatesModule, MatchingModule, ScoringModule, SafetyModule],
  providers: [MatchingErasure],
  exports: [MatchingErasure],
})
export class MatchingMemberDataModule {}

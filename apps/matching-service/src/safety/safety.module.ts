import { Module } from '@nestjs/common';
import { MatchingModule } from '../matching/matching.module';
import { PairStateWriter } from './pair-state-writer';

/** Matching's own part of safety's pair events (user.blocked, user.unblocked, match.ended), after the kit's pair projection. */
@Module({
  imports: [MatchingModule],
  providers: [PairStateWriter],
  exports: [PairStateWriter],
})
export class SafetyModule {}

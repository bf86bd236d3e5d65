import { Module } from '@nestjs/common';
import { MatchingModule } from '../matching/matching.module';
import { BlockedPairsRepository } from './blocked-pairs.repository';
import { PairStateWriter } from './pair-state-writer';

/** Safety's pair state in matching: written from user.blocked, user.unblocked and match.ended. */
@Module({
  imports: [MatchingModule],
  providers: [PairStateWriter, BlockedPairsRepository],
  exports: [PairStateWriter, BlockedPairsRepository],
})
export class SafetyModule {}

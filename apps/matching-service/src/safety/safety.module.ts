import { Module } from '@nestjs/common';
import { PairStateWriter } from './pair-state-writer';

/** Safety's pair state in matching: written from user.blocked, user.unblocked and match.ended. */
@Module({
  providers: [PairStateWriter],
  exports: [PairStateWriter],
})
export class SafetyModule {}

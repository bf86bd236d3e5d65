import { Module } from '@nestjs/common';
import { BlockedPairs } from './blocked-pairs';

/** Safety's block state (user.blocked, user.unblocked), read where a member looks at another. */
@Module({
  providers: [BlockedPairs],
  exports: [BlockedPairs],
})
export class BlocksModule {}

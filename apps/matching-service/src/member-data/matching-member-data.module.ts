import { Module } from '@nestjs/common';
import { MatchingModule } from '../matching/matching.module';
import { MatchingErasure } from './matching-erasure';

/** Erasing a member (`user.deleted`); the export part is served by the kit's MemberDataModule. */
@Module({
  imports: [MatchingModule],
  providers: [MatchingErasure],
  exports: [MatchingErasure],
})
export class MatchingMemberDataModule {}

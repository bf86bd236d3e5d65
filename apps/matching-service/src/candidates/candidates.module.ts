import { Module } from '@nestjs/common';
import { CandidateRepository } from './candidate.repository';

/** The candidate projection: written from events, read by the candidate query and the like's check. */
@Module({
  providers: [CandidateRepository],
  exports: [CandidateRepository],
})
export class CandidatesModule {}

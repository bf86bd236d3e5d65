import { Module } from '@nestjs/common';
import { CandidateQuery } from './candidate-query';
import { CandidateWriter } from './candidate-writer';

/** The candidate projection: written from events, read by the candidate query and the like's check. */
@Module({
  providers: [CandidateWriter, CandidateQuery],
  exports: [CandidateWriter, CandidateQuery],
})
export class CandidatesModule {}

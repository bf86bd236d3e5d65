import { Module } from '@nestjs/common';
import { RefitService } from './refit.service';
import { RefitWorker } from './refit.worker';
import { ScoringRepository } from './scoring.repository';
import { ScoringService } from './scoring.service';

/** Reciprocal scoring (ARCHITECTURE §5): the active model, ranking, and its scheduled refit. */
@Module({
  providers: [ScoringRepository, ScoringService, RefitService, RefitWorker],
  exports: [ScoringService, RefitService, ScoringRepository],
})
export class ScoringModule {}

import { Module } from '@nestjs/common';
import { MatchingController } from './matching.controller';

/** The generated first feature of matching-service; replace it with the service's own. */
@Module({
  controllers: [MatchingController],
})
export class MatchingModule {}

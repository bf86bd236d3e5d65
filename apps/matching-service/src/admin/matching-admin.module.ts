import { Module } from '@nestjs/common';
import { MatchingAdminController } from './matching-admin.controller';
import { MatchesRepository } from '../matching/matches.repository';
import { MatchingAdminService } from './matching-admin.service';

/** matching-service's side of the admin area (issue 13): counts for admin-service. */
@Module({
  controllers: [MatchingAdminController],
  providers: [MatchingAdminService, MatchesRepository],
})
export class MatchingAdminModule {}

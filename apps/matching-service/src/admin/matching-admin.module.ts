import { Module } from '@nestjs/common';
import { MatchingAdminController } from './matching-admin.controller';
import { MatchingAdminService } from './matching-admin.service';

/** matching-service's side of the admin area (issue 13): counts for admin-service. */
@Module({
  controllers: [MatchingAdminController],
  providers: [MatchingAdminService],
})
export class MatchingAdminModule {}

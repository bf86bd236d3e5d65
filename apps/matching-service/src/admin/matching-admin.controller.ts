import { Controller, Get, Param, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AdminStatsDto } from '@mate/contracts';
import { InternalCallerGuard, MemberIdPipe, Public, UnavailableInterceptor } from '@mate/server-kit';
import { MatchingAdminService } from './matching-admin.service';

/**
 * What admin-service reads from matching (INTERNAL_ADMIN_PATHS, issue 13). Service to service
 * only: `/internal/**` is refused without the deployment's internal credential (the kit's
 * middleware, and this guard), so the gateway never reaches it. Not in the API documents.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@UseInterceptors(UnavailableInterceptor)
@Controller('internal/admin')
export class MatchingAdminController {
  constructor(private readonly admin: MatchingAdminService) {}

  /** `GET /internal/admin/members/{id}`: the member's live matches. */
  @Get('members/:userId')
  @Public()
  async member(@Param('userId', MemberIdPipe) userId: string): Promise<{ matchCount: number }> {
    return { matchCount: await this.admin.liveMatchCount(userId) };
  }

  /** `GET /internal/admin/stats`: the statistics' match card. */
  @Get('stats')
  @Public()
  async stats(): Promise<{ matches: AdminStatsDto['matches'] }> {
    return { matches: { total: await this.admin.matchesEverMade() } };
  }
}

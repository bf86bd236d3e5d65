import {
  Controller,
  Get,
  Injectable,
  Param,
  UseGuards,
  UseInterceptors,
  type PipeTransform,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AdminStatsDto } from '@mate/contracts';
import { isUUID } from 'class-validator';
import { badRequest, InternalCallerGuard, Public, UnavailableInterceptor } from '@mate/server-kit';
import { MatchingAdminService } from './matching-admin.service';

/** A member id for an internal caller: not a UUID is the caller's mistake (400), lower-cased. */
@Injectable()
class AdminMemberIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value)) throw badRequest('userId must be a UUID');
    return value.toLowerCase();
  }
}

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
  async member(@Param('userId', AdminMemberIdPipe) userId: string): Promise<{ matchCount: number }> {
    return { matchCount: await this.admin.liveMatchCount(userId) };
  }

  /** `GET /internal/admin/stats`: the statistics' match card. */
  @Get('stats')
  @Public()
  async stats(): Promise<{ matches: AdminStatsDto['matches'] }> {
    return { matches: { total: await this.admin.matchesEverMade() } };
  }
}

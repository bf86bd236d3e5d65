import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ROLE_ADMIN,
  type AnalyticsOverviewDto,
  type EngagementDto,
  type MatchAnalyticsDto,
  type ReportTrendRowDto,
  type RetentionDto,
  type SafetyAnalyticsDto,
  type UserGrowthRowDto,
} from '@mate/contracts';
import { ApiErrors, EmptyBodyPipe, Roles, UnavailableInterceptor } from '@mate/server-kit';
import { AnalyticsService } from './analytics.service';
import { AnalyticsPeriodQueryDto } from './dto/analytics-query.dto';
import {
  AnalyticsOverviewResponseDto,
  EngagementResponseDto,
  MatchAnalyticsResponseDto,
  ReportTrendRowResponseDto,
  RetentionResponseDto,
  SafetyAnalyticsResponseDto,
  UserGrowthRowResponseDto,
} from './dto/analytics-responses.dto';

/**
 * The seven analytics calls of spec 001 §7 under both readings of the admin API base
 * (`/api/admin/analytics/...` and `/admin/analytics/...`), for admins only (403 otherwise).
 * `days` is a whole number from 1 to ANALYTICS_MAX_DAYS (default 30); the calls without
 * parameters refuse any. Metric definitions: README "Analytics".
 */
@ApiTags('admin analytics')
@Roles(ROLE_ADMIN)
@UseInterceptors(UnavailableInterceptor)
@Controller(['api/admin/analytics', 'admin/analytics'])
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('overview')
  @ApiOkResponse({ type: AnalyticsOverviewResponseDto })
  @ApiErrors(400, 401, 403, 503)
  overview(@Query(EmptyBodyPipe) _query: undefined): Promise<AnalyticsOverviewDto> {
    return this.analytics.overview();
  }

  @Get('user-growth')
  @ApiOkResponse({ type: [UserGrowthRowResponseDto], description: 'One row per UTC day of the period, oldest first' })
  @ApiErrors(400, 401, 403, 503)
  userGrowth(@Query() query: AnalyticsPeriodQueryDto): Promise<UserGrowthRowDto[]> {
    return this.analytics.userGrowth(query.days);
  }

  @Get('engagement')
  @ApiOkResponse({ type: EngagementResponseDto })
  @ApiErrors(400, 401, 403, 503)
  engagement(@Query() query: AnalyticsPeriodQueryDto): Promise<EngagementDto> {
    return this.analytics.engagement(query.days);
  }

  @Get('matches')
  @ApiOkResponse({ type: MatchAnalyticsResponseDto, description: 'total*: ever; *InPeriod: the `days` days ending today; newMatches7d/30d: fixed windows' })
  @ApiErrors(400, 401, 403, 503)
  matches(@Query() query: AnalyticsPeriodQueryDto): Promise<MatchAnalyticsDto> {
    return this.analytics.matches(query.days);
  }

  @Get('retention')
  @ApiOkResponse({ type: RetentionResponseDto })
  @ApiErrors(400, 401, 403, 503)
  retention(@Query(EmptyBodyPipe) _query: undefined): Promise<RetentionDto> {
    return this.analytics.retention();
  }

  @Get('safety')
  @ApiOkResponse({ type: SafetyAnalyticsResponseDto })
  @ApiErrors(400, 401, 403, 503)
  safety(@Query(EmptyBodyPipe) _query: undefined): Promise<SafetyAnalyticsDto> {
    return this.analytics.safety();
  }

  @Get('report-trends')
  @ApiOkResponse({ type: [ReportTrendRowResponseDto], description: 'Reports made per UTC day and reason (days without reports left out)' })
  @ApiErrors(400, 401, 403, 503)
  reportTrends(@Query() query: AnalyticsPeriodQueryDto): Promise<ReportTrendRowDto[]> {
    return this.analytics.reportTrends(query.days);
  }
}

import { Controller, Get, Param, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SafetyErrorCode, type AdminStatsDto, type SafetyReportDetailPart, type SafetyReportsPagePart } from '@mate/contracts';
import { InternalCallerGuard, MemberIdPipe, notFound, Public, UnavailableInterceptor } from '@mate/server-kit';
import { AdminReportsService } from './admin-reports.service';
import { AdminReportsQueryDto } from './dto/admin-queries.dto';
import { ReportIdPipe } from './report-id.pipe';

/**
 * The reports as admin-service reads them (INTERNAL_ADMIN_PATHS, issue 13). Service to service
 * only: `/internal/**` is refused without the deployment's internal credential (the kit's
 * middleware, and this guard), so the gateway never reaches it; no member token (admin-service
 * checked the admin's role). Not in the API documents.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@UseInterceptors(UnavailableInterceptor)
@Controller('internal/admin')
export class AdminReportsController {
  constructor(private readonly reports: AdminReportsService) {}

  /** `GET /internal/admin/reports?status&reason&limit&offset`: newest first. */
  @Get('reports')
  @Public()
  list(@Query() query: AdminReportsQueryDto): Promise<SafetyReportsPagePart> {
    return this.reports.list(query);
  }

  /** `GET /internal/admin/reports/{id}`: with its snapshot; 404 when none. */
  @Get('reports/:reportId')
  @Public()
  async report(@Param('reportId', ReportIdPipe) reportId: string): Promise<SafetyReportDetailPart> {
    const report = await this.reports.detail(reportId);
    if (!report) throw notFound('Report not found', SafetyErrorCode.ReportNotFound);
    return report;
  }

  /** `GET /internal/admin/members/{id}`: reports they made and received. */
  @Get('members/:userId')
  @Public()
  member(
    @Param('userId', MemberIdPipe) userId: string,
  ): Promise<{ reportsMade: number; reportsReceived: number }> {
    return this.reports.memberCounts(userId);
  }

  /** `GET /internal/admin/stats`: the statistics' report card. */
  @Get('stats')
  @Public()
  stats(): Promise<AdminStatsDto['reports']> {
    return this.reports.stats();
  }
}

import { Injectable } from '@nestjs/common';
import {
  AdminErrorCode,
  QueueName,
  SafetyErrorCode,
  type AdminReportDetailDto,
  type AdminReportDto,
  type SafetyReportPart,
} from '@mate/contracts';
import { conflict, notFound, serviceUnavailable } from '@mate/server-kit';
import { AuditedCommands, type AdminActor, type CommandOutcome } from './audited-command';
import type { ReportsQueryDto, UpdateReportBodyDto } from './dto/moderation-requests.dto';
import { OwnersClient } from './owners.client';
import { People, type Person } from './people';

export const REPORT_NOT_FOUND = 'Report not found';
export const REPORT_NOT_PENDING = 'Only a pending report can be resolved';
const NOT_PENDING = { error: REPORT_NOT_PENDING, code: AdminErrorCode.ReportNotPending };
const REPORTS_UNAVAILABLE = 'Reports are unavailable right now (safety-service did not answer); try again';

/** Reports as admins see them: safety-service's, with both members' names and emails; resolution as a command to safety. */
@Injectable()
export class AdminReportsService {
  constructor(
    private readonly owners: OwnersClient,
    private readonly people: People,
    private readonly commands: AuditedCommands,
  ) {}

  async list(query: ReportsQueryDto): Promise<{ reports: AdminReportDto[]; total: number }> {
    const page = await this.owners.reports({ status: query.status, reason: query.reason, limit: query.limit, offset: query.offset });
    if (!page.ok) throw serviceUnavailable(undefined, REPORTS_UNAVAILABLE);
    const person = await this.people.lookUp(page.value.reports.flatMap((r) => [r.reporterId, r.reportedId]));
    return { reports: page.value.reports.map((r) => toDto(r, person)), total: page.value.total };
  }

  async detail(reportId: string): Promise<AdminReportDetailDto> {
    const report = await this.owners.report(reportId);
    if (!report.ok) {
      throw report.notFound
        ? notFound(REPORT_NOT_FOUND, SafetyErrorCode.ReportNotFound)
        : serviceUnavailable(undefined, REPORTS_UNAVAILABLE);
    }
    const person = await this.people.lookUp([report.value.reporterId, report.value.reportedId]);
    return { ...toDto(report.value, person), snapshot: report.value.snapshot };
  }

  async resolve(actor: AdminActor, reportId: string, body: UpdateReportBodyDto): Promise<CommandOutcome> {
    const report = await this.owners.report(reportId);
    if (!report.ok) {
      throw report.notFound
        ? notFound(REPORT_NOT_FOUND, SafetyErrorCode.ReportNotFound)
        : serviceUnavailable(undefined, REPORTS_UNAVAILABLE);
    }
    if (report.value.status !== 'pending') throw conflict(NOT_PENDING.error, NOT_PENDING.code);
    const resolution = body.resolution ? body.resolution : null;
    return this.commands.run(actor, {
      action: 'resolve_report',
      targetUserId: report.value.reportedId,
      resourceType: 'report',
      resourceId: reportId,
      details: { status: body.status, resolution, reason: report.value.reason },
      decision: NOT_PENDING,
      queue: QueueName.ReportAdmin,
      job: { kind: 'resolve', reportId, status: body.status, resolution, adminId: actor.adminId },
    });
  }
}

function toDto(r: SafetyReportPart, person: (id: string | null) => Person): AdminReportDto {
  const reporter = person(r.reporterId);
  const reported = person(r.reportedId);
  return {
    id: r.id,
    status: r.status,
    reason: r.reason,
    details: r.details,
    resolution: r.resolution,
    createdAt: r.createdAt,
    resolvedAt: r.resolvedAt,
    reporterId: r.reporterId,
    reporterName: reporter.name,
    reporterEmail: reporter.email,
    reportedUserId: r.reportedId,
    reportedUserName: reported.name,
    reportedUserEmail: reported.email,
  };
}

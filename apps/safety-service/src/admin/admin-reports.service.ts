import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type {
  AdminStatsDto,
  ReportAdminCommand,
  ReportReason,
  ReportSnapshotMessageDto,
  ReportStatus,
  SafetyReportDetailPart,
  SafetyReportPart,
  SafetyReportsPagePart,
} from '@mate/contracts';
import { CLOCK, LOGGER, OutboxService, type Clock } from '@mate/server-kit';
import { ReportsRepository, type ReportRow } from '../safety/reports.repository';

/** What a resolve command did: moved a pending report, found it decided already, or found none. */
export type ResolveOutcome = 'resolved' | 'already-decided' | 'no-report';

function reportPart(row: ReportRow): SafetyReportPart {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    details: row.details,
    resolution: row.resolution,
    reporterId: row.reporter_id,
    reportedId: row.reported_id,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
  };
}

/**
 * safety-service's side of the admin area (issue 13): the reports as moderators read them, the
 * counts the user detail and the statistics show, and the carrying out of an admin's resolution.
 * Only admin-service asks (internal credential); it joins names and emails from auth.
 */
@Injectable()
export class AdminReportsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reports: ReportsRepository,
    private readonly outbox: OutboxService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A page of reports, newest first (id breaks ties so pages never overlap), and how many match. */
  async list(filter: {
    status?: ReportStatus;
    reason?: ReportReason;
    limit: number;
    offset: number;
  }): Promise<SafetyReportsPagePart> {
    const { rows, total } = await this.reports.page({
      status: filter.status ?? null,
      reason: filter.reason ?? null,
      limit: filter.limit,
      offset: filter.offset,
    });
    return { reports: rows.map(reportPart), total };
  }

  /** One report with the snapshot kept when it was made, or null. */
  async detail(reportId: string): Promise<SafetyReportDetailPart | null> {
    const row = await this.reports.detail(reportId);
    if (!row) return null;
    const messages: ReportSnapshotMessageDto[] = (row.messages ?? []).map((m) => ({
      id: m.id,
      senderId: m.senderId,
      content: m.content,
      createdAt: m.createdAt,
    }));
    // Safety stores pending | complete; the admin contract tells an empty conversation apart.
    const messagesStatus =
      row.messages_status === 'pending' ? 'pending' : messages.length > 0 ? 'captured' : 'none';
    return {
      ...reportPart(row),
      snapshot: {
        reportedProfile: row.reported_profile,
        messagesStatus,
        messages,
        messagesCapturedAt: row.messages_captured_at ? row.messages_captured_at.toISOString() : null,
      },
    };
  }

  /** Reports the member made and reports about them (0 and 0 for a member safety never saw). */
  async memberCounts(userId: string): Promise<{ reportsMade: number; reportsReceived: number }> {
    const counts = await this.reports.memberCounts(userId);
    return { reportsMade: counts?.made ?? 0, reportsReceived: counts?.received ?? 0 };
  }

  /** Every report, the pending ones, and the count of each reason, most frequent first. */
  async stats(): Promise<AdminStatsDto['reports']> {
    const rows = await this.reports.countsByReason();
    return {
      total: rows.reduce((sum, r) => sum + r.total, 0),
      pending: rows.reduce((sum, r) => sum + r.pending, 0),
      byReason: rows.map((r) => ({ reason: r.reason, count: r.total })),
    };
  }

  /**
   * An admin's resolution: only a pending report moves, and report.resolved is written in the
   * same transaction, so a retried or repeated command changes nothing and publishes nothing.
   */
  async resolve(command: ReportAdminCommand): Promise<ResolveOutcome> {
    const resolvedAt = this.clock.now();
    const outcome = await this.dataSource.transaction(async (manager): Promise<ResolveOutcome> => {
      const row = await this.reports.resolvePending(manager, command.reportId, command.status, command.resolution, resolvedAt);
      if (!row) return (await this.reports.exists(manager, command.reportId)) ? 'already-decided' : 'no-report';
      await this.outbox.publish(manager, 'report.resolved', {
        reportId: row.id,
        reporterId: row.reporter_id,
        reportedId: row.reported_id,
        reason: row.reason,
        status: command.status,
        reportedAt: row.created_at.toISOString(),
        resolvedAt: resolvedAt.toISOString(),
      });
      return 'resolved';
    });
    // Never the resolution text: it may quote the members.
    this.logger.info(
      { reportId: command.reportId, adminId: command.adminId, status: command.status, outcome },
      'report resolution',
    );
    return outcome;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type {
  AdminStatsDto,
  PairMessageSnapshot,
  ReportAdminCommand,
  ReportReason,
  ReportSnapshotMessageDto,
  ReportStatus,
  SafetyReportDetailPart,
  SafetyReportPart,
  SafetyReportsPagePart,
} from '@mate/contracts';
import { CLOCK, LOGGER, OutboxService, type Clock } from '@mate/server-kit';

interface ReportRow {
  id: string;
  status: ReportStatus;
  reason: ReportReason;
  details: string | null;
  resolution: string | null;
  reporter_id: string;
  reported_id: string;
  created_at: Date;
  resolved_at: Date | null;
}

interface ReportDetailRow extends ReportRow {
  reported_profile: Record<string, unknown> | null;
  messages: PairMessageSnapshot[] | null;
  messages_status: 'pending' | 'complete';
  messages_captured_at: Date | null;
}

const REPORT_COLUMNS =
  'id, status, reason, details, resolution, reporter_id, reported_id, created_at, resolved_at';

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
    const params = [filter.status ?? null, filter.reason ?? null];
    const where = 'WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR reason = $2)';
    const [rows, counted] = await Promise.all([
      this.dataSource.query<ReportRow[]>(
        `SELECT ${REPORT_COLUMNS} FROM report ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
        [...params, filter.limit, filter.offset],
      ),
      this.dataSource.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM report ${where}`,
        params,
      ),
    ]);
    return { reports: rows.map(reportPart), total: counted[0]?.total ?? 0 };
  }

  /** One report with the snapshot kept when it was made, or null. */
  async detail(reportId: string): Promise<SafetyReportDetailPart | null> {
    const rows = await this.dataSource.query<ReportDetailRow[]>(
      `SELECT ${REPORT_COLUMNS}, reported_profile, messages, messages_status, messages_captured_at FROM report WHERE id = $1`,
      [reportId],
    );
    const row = rows[0];
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
    const rows = await this.dataSource.query<{ made: number; received: number }[]>(
      `SELECT (SELECT count(*)::int FROM report WHERE reporter_id = $1) AS made,
              (SELECT count(*)::int FROM report WHERE reported_id = $1) AS received`,
      [userId],
    );
    return { reportsMade: rows[0]?.made ?? 0, reportsReceived: rows[0]?.received ?? 0 };
  }

  /** Every report, the pending ones, and the count of each reason, most frequent first. */
  async stats(): Promise<AdminStatsDto['reports']> {
    const rows = await this.dataSource.query<{ reason: string; total: number; pending: number }[]>(
      `SELECT reason, count(*)::int AS total, (count(*) FILTER (WHERE status = 'pending'))::int AS pending
         FROM report GROUP BY reason ORDER BY total DESC, reason`,
    );
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
      // TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, count].
      const [moved] = (await manager.query(
        `UPDATE report SET status = $2, resolution = $3, resolved_at = $4
          WHERE id = $1 AND status = 'pending'
        RETURNING ${REPORT_COLUMNS}`,
        [command.reportId, command.status, command.resolution, resolvedAt],
      )) as [ReportRow[], number];
      const row = moved[0];
      if (!row) {
        const exists = await manager.query<unknown[]>('SELECT 1 FROM report WHERE id = $1', [
          command.reportId,
        ]);
        return exists.length ? 'already-decided' : 'no-report';
      }
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

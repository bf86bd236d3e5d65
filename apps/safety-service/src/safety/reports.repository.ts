import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PairMessageSnapshot, ReportReason, ReportStatus } from '@mate/contracts';
import type { ReportedProfileSnapshot } from './safety.entities';

/** A report as moderators list it. */
export interface ReportRow {
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

/** A report with the snapshot kept when it was made. */
export interface ReportDetailRow extends ReportRow {
  reported_profile: Record<string, unknown> | null;
  messages: PairMessageSnapshot[] | null;
  messages_status: 'pending' | 'complete';
  messages_captured_at: Date | null;
}

/** A new report; `messages` null stores it with its messages pending. */
export interface NewReport {
  id: string;
  reporterId: string;
  reportedId: string;
  reason: ReportReason;
  details: string | null;
  createdAt: Date;
  reportedProfile: ReportedProfileSnapshot;
  messages: PairMessageSnapshot[] | null;
  messagesCapturedAt: Date | null;
}

/** What the evidence job needs of a report. */
export interface EvidenceReportRow {
  reporter_id: string;
  reported_id: string;
  created_at: Date;
  messages_status: string;
}

const REPORT_COLUMNS = 'id, status, reason, details, resolution, reporter_id, reported_id, created_at, resolved_at';

const REPORTED_SINCE = 'SELECT 1 FROM report WHERE reporter_id = $1 AND reported_id = $2 AND created_at > $3 LIMIT 1';

const INSERT_REPORT = `INSERT INTO report (id, reporter_id, reported_id, reason, details, created_at, reported_profile, messages,
                             messages_status, messages_captured_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

const REPORT_FOR_EVIDENCE = 'SELECT reporter_id, reported_id, created_at, messages_status FROM report WHERE id = $1';

const FILL_MESSAGES = `UPDATE report SET messages = $2, messages_status = 'complete', messages_captured_at = $3
        WHERE id = $1 AND messages_status = 'pending'`;

const PENDING_EVIDENCE = `SELECT id FROM report WHERE messages_status = 'pending' ORDER BY created_at LIMIT $1`;

const PAGE_FILTER = 'WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR reason = $2)';

const REPORTS_PAGE = `SELECT ${REPORT_COLUMNS} FROM report ${PAGE_FILTER} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`;

const REPORTS_COUNT = `SELECT count(*)::int AS total FROM report ${PAGE_FILTER}`;

const REPORT_DETAIL = `SELECT ${REPORT_COLUMNS}, reported_profile, messages, messages_status, messages_captured_at FROM report WHERE id = $1`;

const MEMBER_REPORT_COUNTS = `SELECT (SELECT count(*)::int FROM report WHERE reporter_id = $1) AS made,
              (SELECT count(*)::int FROM report WHERE reported_id = $1) AS received`;

const COUNTS_BY_REASON = `SELECT reason, count(*)::int AS total, (count(*) FILTER (WHERE status = 'pending'))::int AS pending
         FROM report GROUP BY reason ORDER BY total DESC, reason`;

const RESOLVE_PENDING = `UPDATE report SET status = $2, resolution = $3, resolved_at = $4
          WHERE id = $1 AND status = 'pending'
        RETURNING ${REPORT_COLUMNS}`;

const REPORTS_MADE_BY =
  'SELECT id, reported_id, reason, details, status, created_at FROM report WHERE reporter_id = $1 ORDER BY created_at DESC, id DESC';

const REPORT_EXISTS = 'SELECT 1 FROM report WHERE id = $1';

/** The member's pending snapshots, closed empty (chat has nothing of the member any more). $1 the member. */
const CLOSE_PENDING_SNAPSHOTS_OF_MEMBER = `UPDATE report SET messages = '[]'::jsonb, messages_status = 'complete', messages_captured_at = now()
        WHERE messages_status = 'pending' AND (reporter_id = $1::uuid OR reported_id = $1::uuid)`;

/**
 * A report's message snapshot without the deleted member's messages, their id as recipient
 * replaced by the stand-in. `$1` the member, `stand_in` the report's fresh id (a column of the
 * statement's CTE).
 */
const SNAPSHOT_WITHOUT_MEMBER = `(
  SELECT coalesce(jsonb_agg(CASE WHEN lower(e.m->>'recipientId') = $1::text
                                 THEN jsonb_set(e.m, '{recipientId}', to_jsonb(s.stand_in::text)) ELSE e.m END
                            ORDER BY e.n), '[]'::jsonb)
    FROM jsonb_array_elements(r.messages) WITH ORDINALITY AS e(m, n)
   WHERE lower(e.m->>'senderId') IS DISTINCT FROM $1::text)`;

/**
 * Reports the member made stay for the moderators with the reporter anonymised: a fresh id per
 * report; the reported member's profile snapshot and messages stay (evidence about them), the
 * reporter's own messages leave the snapshot. A snapshot still pending is closed empty: chat has
 * nothing of the member any more. $1 the member.
 */
const ANONYMISE_REPORTS_MADE_SQL = `
WITH s AS (SELECT id, gen_random_uuid() AS stand_in FROM report WHERE reporter_id = $1::uuid)
UPDATE report r
   SET reporter_id = s.stand_in,
       messages = CASE WHEN r.messages IS NULL THEN NULL ELSE ${SNAPSHOT_WITHOUT_MEMBER} END
  FROM s WHERE r.id = s.id`;

/**
 * Reports about the member stay (status, reason, the reporter's details) with the reported member
 * anonymised: a fresh id per report; their profile snapshot and their messages leave it. $1 the member.
 */
const ANONYMISE_REPORTS_ABOUT_SQL = `
WITH s AS (SELECT id, gen_random_uuid() AS stand_in FROM report WHERE reported_id = $1::uuid)
UPDATE report r
   SET reported_id = s.stand_in,
       reported_profile = NULL,
       messages = CASE WHEN r.messages IS NULL THEN NULL ELSE ${SNAPSHOT_WITHOUT_MEMBER} END
  FROM s WHERE r.id = s.id`;

/** The `report` table: members' reports, their evidence, and the moderators' decisions. */
@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The reporter reported the member after `since`. */
  async reportedSince(manager: EntityManager, reporterId: string, reportedId: string, since: Date): Promise<boolean> {
    const rows: unknown[] = await manager.query(REPORTED_SINCE, [reporterId, reportedId, since]);
    return rows.length > 0;
  }

  async insert(manager: EntityManager, report: NewReport): Promise<void> {
    const { messages } = report;
    await manager.query(INSERT_REPORT, [
      report.id,
      report.reporterId,
      report.reportedId,
      report.reason,
      report.details,
      report.createdAt,
      report.reportedProfile,
      messages === null ? null : JSON.stringify(messages),
      messages === null ? 'pending' : 'complete',
      report.messagesCapturedAt,
    ]);
  }

  async findForEvidence(reportId: string): Promise<EvidenceReportRow | null> {
    const rows: EvidenceReportRow[] = await this.dataSource.query(REPORT_FOR_EVIDENCE, [reportId]);
    return rows[0] ?? null;
  }

  /** Stores the messages of a report still pending (one filled meanwhile stays as it is). */
  async fillMessages(reportId: string, messages: PairMessageSnapshot[], capturedAt: Date): Promise<void> {
    await this.dataSource.query(FILL_MESSAGES, [reportId, JSON.stringify(messages), capturedAt]);
  }

  /** The reports whose messages are pending, oldest first, at most `limit`. */
  async pendingEvidence(limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(PENDING_EVIDENCE, [limit]);
    return rows.map((r) => r.id);
  }

  /** A page of reports, newest first (id breaks ties so pages never overlap), and how many match. */
  async page(filter: {
    status: ReportStatus | null;
    reason: ReportReason | null;
    limit: number;
    offset: number;
  }): Promise<{ rows: ReportRow[]; total: number }> {
    const params = [filter.status, filter.reason];
    const [rows, counted] = await Promise.all([
      this.dataSource.query<ReportRow[]>(REPORTS_PAGE, [...params, filter.limit, filter.offset]),
      this.dataSource.query<{ total: number }[]>(REPORTS_COUNT, params),
    ]);
    return { rows, total: counted[0]?.total ?? 0 };
  }

  async detail(reportId: string): Promise<ReportDetailRow | null> {
    const rows = await this.dataSource.query<ReportDetailRow[]>(REPORT_DETAIL, [reportId]);
    return rows[0] ?? null;
  }

  /** Reports the member made and reports about them. */
  async memberCounts(userId: string): Promise<{ made: number; received: number } | null> {
    const rows = await this.dataSource.query<{ made: number; received: number }[]>(MEMBER_REPORT_COUNTS, [userId]);
    return rows[0] ?? null;
  }

  /** Every reason reported, with its reports and its pending ones, most frequent first. */
  countsByReason(): Promise<{ reason: string; total: number; pending: number }[]> {
    return this.dataSource.query(COUNTS_BY_REASON);
  }

  /** Moves a pending report to its decision; null when it is not pending (or not there). */
  async resolvePending(
    manager: EntityManager,
    reportId: string,
    status: ReportStatus,
    resolution: string | null,
    resolvedAt: Date,
  ): Promise<ReportRow | null> {
    // TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, count].
    const [moved] = (await manager.query(RESOLVE_PENDING, [reportId, status, resolution, resolvedAt])) as [ReportRow[], number];
    return moved[0] ?? null;
  }

  /** Every report the member made, newest first, without the evidence kept about the other member. */
  madeBy(reporterId: string): Promise<{ id: string; reported_id: string; reason: string; details: string | null; status: string; created_at: Date }[]> {
    return this.dataSource.query(REPORTS_MADE_BY, [reporterId]);
  }

  async exists(manager: EntityManager, reportId: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>(REPORT_EXISTS, [reportId]);
    return rows.length > 0;
  }

  /**
   * The member's pending snapshots are closed empty (their erasure): they would ask chat about a
   * pair that no longer exists there.
   */
  async closePendingSnapshotsOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(CLOSE_PENDING_SNAPSHOTS_OF_MEMBER, [userId]);
  }

  /** Reports the member made stay with the reporter anonymised (their erasure): ANONYMISE_REPORTS_MADE_SQL. */
  async anonymiseReportsMadeBy(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ANONYMISE_REPORTS_MADE_SQL, [userId]);
  }

  /** Reports about the member stay with the reported member anonymised (their erasure): ANONYMISE_REPORTS_ABOUT_SQL. */
  async anonymiseReportsAbout(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ANONYMISE_REPORTS_ABOUT_SQL, [userId]);
  }
}

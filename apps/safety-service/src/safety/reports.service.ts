import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DEFAULT_REPORT_REASON,
  QueueName,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REPEAT_WINDOW_MS,
  SafetyErrorCode,
  SafetyMessages,
  type PairMessageSnapshot,
  type ReportReason,
  type ReportResultDto,
} from '@mate/contracts';
import {
  badRequest,
  CLOCK,
  conflict,
  lockMembersAgainstErasure,
  LOGGER,
  notFound,
  OutboxService,
  ServiceCallError,
  type Clock,
} from '@mate/server-kit';
import { MembersRepository } from './members.repository';
import { PairsRepository } from './pairs.repository';
import { describe, ReportEvidence } from './report-evidence';
import { ReportsRepository } from './reports.repository';
import { memberText } from './safety-text';

/** Pending reports one sweep run fills at most. */
export const EVIDENCE_SWEEP_BATCH = 200;

/** What a snapshot job did: filled the messages, found them filled, or found no report. */
export type EvidenceOutcome = 'filled' | 'already-complete' | 'no-report';

/**
 * Reports (spec 000 §3, §4; issue 10). A report is stored self-contained for the moderators: ids,
 * reason, details, time, a snapshot of the reported profile (safety's member table) and of the last
 * messages between the two (chat-service, asked before the transaction with a timeout; when chat
 * cannot answer the report is stored with the messages pending and a job fills them). One report
 * per reporter and reported member per 24 hours, enforced under the pair's row lock; a per-member
 * hourly limit in Redis. report.created is a fact and carries no details text.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reports: ReportsRepository,
    private readonly members: MembersRepository,
    private readonly pairs: PairsRepository,
    private readonly evidence: ReportEvidence,
    private readonly outbox: OutboxService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async report(
    reporterId: string,
    reportedId: string,
    body: { reason?: ReportReason; details?: string },
  ): Promise<ReportResultDto> {
    if (reporterId === reportedId) throw badRequest(SafetyMessages.reportSelf, SafetyErrorCode.ReportSelf);
    const reason = body.reason ?? DEFAULT_REPORT_REASON;
    const details = memberText(body.details, REPORT_DETAILS_MAX_LENGTH, SafetyMessages.detailsTooLong);
    const member = await this.members.find(reportedId);
    if (!member) throw notFound(SafetyMessages.memberNotFound, SafetyErrorCode.MemberNotFound);
    const createdAt = this.clock.now();
    // Cheap refusal before asking chat; the rule itself is checked again under the lock.
    if (await this.reportedRecently(this.dataSource.manager, reporterId, reportedId, createdAt)) {
      throw conflict(SafetyMessages.alreadyReported, SafetyErrorCode.AlreadyReported);
    }
    const messages = await this.evidence.messagesOrNull(reporterId, reportedId, createdAt);
    const id = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      // A member deleted since they were looked up is unknown: the report would name them after their erasure.
      if (await lockMembersAgainstErasure(manager, [reporterId, reportedId])) {
        throw notFound(SafetyMessages.memberNotFound, SafetyErrorCode.MemberNotFound);
      }
      await this.pairs.lock(manager, reporterId, reportedId);
      if (await this.reportedRecently(manager, reporterId, reportedId, createdAt)) {
        throw conflict(SafetyMessages.alreadyReported, SafetyErrorCode.AlreadyReported);
      }
      await this.reports.insert(manager, {
        id,
        reporterId,
        reportedId,
        reason,
        details,
        createdAt,
        reportedProfile: member.profile,
        messages,
        messagesCapturedAt: messages === null ? null : this.clock.now(),
      });
      if (messages === null) await this.outbox.enqueueJob(manager, QueueName.SafetyEvidence, { reportId: id });
      await this.outbox.publish(manager, 'report.created', {
        reportId: id,
        reporterId,
        reportedId,
        reason,
        hasDetails: details !== null,
        createdAt: createdAt.toISOString(),
      });
    });
    return { id, reportedId, reason, createdAt: createdAt.toISOString() };
  }

  /** The job's work: the messages of a report stored pending. Throws while chat cannot answer (retried). */
  async fillEvidence(reportId: string): Promise<EvidenceOutcome> {
    const report = await this.reports.findForEvidence(reportId);
    if (!report) return 'no-report';
    if (report.messages_status === 'complete') return 'already-complete';
    const messages: PairMessageSnapshot[] = await this.evidence.messages(report.reporter_id, report.reported_id, report.created_at);
    await this.reports.fillMessages(reportId, messages, this.clock.now());
    return 'filled';
  }

  /**
   * The sweep: every report still pending, oldest first (at most EVIDENCE_SWEEP_BATCH a run).
   * Stops when chat is away (the next run tries again); a report that fails otherwise (chat refuses
   * that pair, an answer that cannot be stored) is logged and passed over, so one such report, the
   * oldest pending at every run, cannot hold back every report after it. Answers how many it filled.
   */
  async sweepEvidence(): Promise<number> {
    const pending = await this.reports.pendingEvidence(EVIDENCE_SWEEP_BATCH);
    let filled = 0;
    for (const id of pending) {
      try {
        if ((await this.fillEvidence(id)) === 'filled') filled += 1;
      } catch (e) {
        if (e instanceof ServiceCallError && e.retryable) throw e;
        this.logger.warn({ reportId: id, err: describe(e) }, "a report's message snapshot could not be filled; the sweep goes on");
      }
    }
    return filled;
  }

  private reportedRecently(manager: EntityManager, reporterId: string, reportedId: string, now: Date): Promise<boolean> {
    return this.reports.reportedSince(manager, reporterId, reportedId, new Date(now.getTime() - REPORT_REPEAT_WINDOW_MS));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { QueueName, SERVICES, type ReportAdminCommand } from '@mate/contracts';
import { HealthRegistry, JobWorker, LOGGER, queueWorkerSettings } from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';
import { AdminReportsService, type ResolveOutcome } from './admin-reports.service';
import { readReportAdminCommand } from './report-admin-command';

/**
 * The worker of `jobs.report-admin`: an admin's resolution of a report, which admin-service
 * writes to its outbox in the transaction of the audit entry (issue 13). Idempotent (only a
 * pending report moves), so the outbox's redelivery and BullMQ's retries do it once; a command
 * that cannot be read is not retried; an unknown report is done (logged). Off when WORKERS=off.
 */
@Injectable()
export class ReportAdminWorker extends JobWorker<QueueName.ReportAdmin, ResolveOutcome> {
  constructor(
    @Inject(SafetyEnv) env: SafetyEnv,
    private readonly reports: AdminReportsService,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, { service: SERVICES.safety, queue: QueueName.ReportAdmin, concurrency: 2 }),
      logger,
      health,
    );
  }

  protected async handle(data: ReportAdminCommand): Promise<ResolveOutcome> {
    const read = readReportAdminCommand(data);
    if ('error' in read) throw new UnrecoverableError(`unreadable report command: ${read.error}`);
    return this.reports.resolve(read.command);
  }
}

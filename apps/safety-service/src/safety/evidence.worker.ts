import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { isUUID } from 'class-validator';
import type { Logger } from 'pino';
import { QueueName, SERVICES, type SafetyEvidenceJobData } from '@mate/contracts';
import { HealthRegistry, JobWorker, LOGGER } from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';
import { ReportsService, type EvidenceOutcome } from './reports.service';

/**
 * The worker of `jobs.safety-evidence`: fills the message snapshot of a report that was stored
 * while chat-service was down or slow. A failed call throws, so BullMQ retries with the outbox's
 * backoff (EVENT_JOB_OPTIONS: exponential from 1 s, 10 attempts); a failed job stays visible and
 * `npm run events -- redrive` re-drives it. Off when WORKERS=off.
 */
@Injectable()
export class EvidenceWorker extends JobWorker<QueueName.SafetyEvidence, EvidenceOutcome> {
  constructor(
    @Inject(SafetyEnv) env: SafetyEnv,
    private readonly reports: ReportsService,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      {
        service: SERVICES.safety,
        queue: QueueName.SafetyEvidence,
        redisUrl: env.REDIS_URL,
        keyPrefix: env.KEY_PREFIX,
        concurrency: 2,
        enabled: env.WORKERS === 'on',
      },
      logger,
      health,
    );
  }

  protected async handle(data: SafetyEvidenceJobData): Promise<EvidenceOutcome> {
    if (typeof data?.reportId !== 'string' || !isUUID(data.reportId)) throw new UnrecoverableError('no report id');
    return this.reports.fillEvidence(data.reportId.toLowerCase());
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { QueueName, SERVICES, type EmailJobData } from '@mate/contracts';
import { HealthRegistry, JobWorker, LOGGER, queueWorkerSettings, type JobData } from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';
import { EmailDeliveryError, EmailsService, type DeliveryOutcome } from './emails.service';

/**
 * The worker of the email queue. A failed send throws, so BullMQ retries it with the backoff the
 * producer set (EVENT_JOB_OPTIONS through the outbox); a job that can never render is not retried.
 * Off when WORKERS=off (API-only replicas, one-off commands).
 */
@Injectable()
export class EmailWorker extends JobWorker<QueueName.Email, DeliveryOutcome> {
  constructor(
    @Inject(NotificationEnv) env: NotificationEnv,
    private readonly emails: EmailsService,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, {
        service: SERVICES.notification,
        queue: QueueName.Email,
        concurrency: env.EMAIL_CONCURRENCY,
      }),
      logger,
      health,
    );
  }

  protected async handle(data: EmailJobData, job: Job<JobData<QueueName.Email>, DeliveryOutcome>): Promise<DeliveryOutcome> {
    try {
      return await this.emails.deliver({
        // The job id alone (the outbox row's id): a re-added job is the same delivery, not a new one.
        jobKey: String(job.id),
        data,
        attempt: job.attemptsMade + 1,
        maxAttempts: job.opts.attempts ?? 1,
      });
    } catch (e) {
      if (e instanceof EmailDeliveryError && e.final) throw new UnrecoverableError(e.message);
      throw e;
    }
  }
}

import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { QueueName, type EmailJobData } from '@mate/contracts';
import { createQueueConnection, LOGGER, runWithRequestId } from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';
import { EmailDeliveryError, EmailsService, type DeliveryOutcome } from './emails.service';

/**
 * The worker of the email queue. A failed send throws, so BullMQ retries it with the backoff the
 * producer set (EVENT_JOB_OPTIONS through the outbox); a job that can never render is not retried.
 * Off when WORKERS=off (API-only replicas, one-off commands).
 */
@Injectable()
export class EmailWorker implements OnModuleInit, OnApplicationShutdown {
  private worker: Worker<EmailJobData, DeliveryOutcome> | null = null;
  private connection: Redis | null = null;

  constructor(
    @Inject(NotificationEnv) private readonly env: NotificationEnv,
    private readonly emails: EmailsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    if (this.env.WORKERS === 'on') this.start();
  }

  get running(): boolean {
    return this.worker !== null;
  }

  start() {
    if (this.worker) return;
    this.connection = createQueueConnection(this.env.REDIS_URL);
    this.worker = new Worker<EmailJobData, DeliveryOutcome>(QueueName.Email, (job) => this.process(job), {
      connection: this.connection,
      prefix: this.env.KEY_PREFIX,
      concurrency: this.env.EMAIL_CONCURRENCY,
    });
    this.worker.on('error', (err) => this.logger.warn({ err }, 'email worker error'));
  }

  async stop() {
    const worker = this.worker;
    const connection = this.connection;
    this.worker = null;
    this.connection = null;
    if (worker) await worker.close();
    if (connection) await connection.quit().catch(() => connection.disconnect());
  }

  async onApplicationShutdown() {
    await this.stop();
  }

  private process(job: Job<EmailJobData, DeliveryOutcome>): Promise<DeliveryOutcome> {
    return runWithRequestId(`email:${job.id}`, async () => {
      try {
        return await this.emails.deliver({
          jobKey: `${job.id}@${job.timestamp}`,
          data: job.data,
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? 1,
        });
      } catch (e) {
        if (e instanceof EmailDeliveryError && e.final) throw new UnrecoverableError(e.message);
        throw e;
      }
    });
  }
}

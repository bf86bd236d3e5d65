import { Inject, Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { SERVICES } from '@mate/contracts';
import { HealthRegistry, LOGGER, QueueWorker, queueWorkerSettings } from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';
import { PUSH_QUEUE, type PushJob } from './push-jobs';
import { PushNotifier } from './push-notifier';
import { PushSender } from './push-sender';
import { PushRepository } from './push.repository';

export type PushJobOutcome =
  | 'sent'
  | 'gone'
  | 'no-subscription'
  | 'pushed'
  | 'online'
  | 'empty'
  | 'not-pushed';

/**
 * The worker of `jobs.push`: ends message bursts (one push per conversation) and sends each
 * device's push. A 404/410 from the push service removes the subscription; any other failure
 * throws, so BullMQ retries with exponential backoff (PUSH_ATTEMPTS, PUSH_BACKOFF_MS). Off when
 * WORKERS=off.
 */
@Injectable()
export class PushWorker extends QueueWorker<PushJob, PushJobOutcome> {
  constructor(
    @Inject(NotificationEnv) env: NotificationEnv,
    private readonly sender: PushSender,
    private readonly notifier: PushNotifier,
    private readonly repository: PushRepository,
    private readonly dataSource: DataSource,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, {
        service: SERVICES.notification,
        queue: PUSH_QUEUE,
        concurrency: env.PUSH_CONCURRENCY,
      }),
      logger,
      health,
    );
  }

  protected requestIdOf(job: Job<PushJob, PushJobOutcome>): string {
    return `push:${job.id}`;
  }

  protected async process(job: Job<PushJob, PushJobOutcome>): Promise<PushJobOutcome> {
    const data = job.data;
    if (data.kind === 'message-burst') {
      return this.notifier.endBurst(String(job.id), this.dataSource, data.recipientId, data.senderId);
    }
    const subscription = await this.repository.subscriptionById(data.subscriptionId);
    // Unsubscribed, replaced or erased since the push was queued.
    if (!subscription) return 'no-subscription';
    const outcome = await this.sender.send(subscription, data.payload);
    if (outcome === 'gone') {
      await this.repository.deleteSubscription(subscription.id);
      this.logger.info(
        { subscriptionId: subscription.id, userId: subscription.userId },
        'push subscription expired: removed',
      );
    } else {
      await this.repository.markUsed(subscription.id);
    }
    return outcome;
  }
}

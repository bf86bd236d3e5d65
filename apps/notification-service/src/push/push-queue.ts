import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue, type JobsOptions } from 'bullmq';
import { BaseServiceEnv, QUEUE_CONNECTION, queuePrefixOf, SERVICE_ENV, type RedisClient } from '@mate/server-kit';
import { PUSH_QUEUE, type MessageBurstJob, type PushJob, type SendPushJob } from './push-jobs';
import { PushSettings } from './push-settings';

/** Finished jobs are kept a while, so a job id given again (a redelivered event) adds nothing. */
const KEEP_FINISHED = { age: 24 * 3600, count: 10_000 };

/** Adds jobs to `jobs.push` (only this service produces them). */
@Injectable()
export class PushQueue implements OnApplicationShutdown {
  private readonly queue: Queue<PushJob>;

  constructor(
    @Inject(QUEUE_CONNECTION) connection: RedisClient,
    @Inject(SERVICE_ENV) env: BaseServiceEnv,
    private readonly settings: PushSettings,
  ) {
    this.queue = new Queue<PushJob>(PUSH_QUEUE, { connection, prefix: queuePrefixOf(env, PUSH_QUEUE) });
    this.queue.on('error', () => undefined); // a Redis outage fails the add, which says so
  }

  async onApplicationShutdown() {
    await this.queue.close().catch(() => undefined);
  }

  /** One push to one device, retried with exponential backoff. `key` makes it once per cause. */
  async send(key: string, job: Omit<SendPushJob, 'kind'>): Promise<void> {
    await this.add(
      `send.${key}.${job.subscriptionId}`,
      { kind: 'send', ...job },
      {
        attempts: this.settings.attempts,
        backoff: { type: 'exponential', delay: this.settings.backoffMs },
      },
    );
  }

  /** The end of a conversation's collapse window. */
  async endBurstLater(token: string, job: Omit<MessageBurstJob, 'kind'>): Promise<void> {
    await this.add(
      `burst.${token}`,
      { kind: 'message-burst', ...job },
      {
        delay: this.settings.collapseMs,
        attempts: this.settings.attempts,
        backoff: { type: 'exponential', delay: this.settings.backoffMs },
      },
    );
  }

  private async add(jobId: string, data: PushJob, options: JobsOptions): Promise<void> {
    await this.queue.add(data.kind, data, {
      ...options,
      jobId: jobId.replace(/:/g, '.'),
      removeOnComplete: KEEP_FINISHED,
      removeOnFail: KEEP_FINISHED,
    });
  }
}

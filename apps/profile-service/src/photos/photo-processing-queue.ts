import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ProfileMessages } from '@mate/contracts';
import { AppException, gauge } from '@mate/server-kit';
import { ProfileEnv } from '../profile.env';

/** What a client is told to wait before retrying an upload refused for a full queue. */
export const UPLOADS_BUSY_RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After: this process holds as many uploads as it may (the member did nothing wrong). */
export function uploadsBusy(): AppException {
  const e = new AppException(
    ProfileMessages.uploadsBusy,
    ErrorCode.ServiceUnavailable,
    HttpStatus.SERVICE_UNAVAILABLE,
  );
  return Object.assign(e, { retryAfterSeconds: UPLOADS_BUSY_RETRY_AFTER_SECONDS });
}

const processingGauge = () =>
  gauge<'state'>({
    name: 'mate_photo_processing',
    help: 'Photo uploads of this process being processed (state="active") or waiting for a slot (state="waiting")',
    labelNames: ['state'],
  });

/**
 * At most PHOTO_PROCESSING_CONCURRENCY uploads are decoded and encoded at a time in this process,
 * and at most PHOTO_PROCESSING_QUEUE wait for a slot; the next one is refused (503). CPU and
 * memory of image work are then bounded whatever arrives: six 50 MP uploads in parallel no longer
 * decode six images at once. A semaphore this small is written here rather than taken from a
 * package because the refusal needs the waiting count, which p-limit and friends hide (ADR 0003).
 */
@Injectable()
export class PhotoProcessingQueue {
  readonly concurrency: number;
  readonly queueLimit: number;
  private running = 0;
  private readonly waiters: (() => void)[] = [];
  private readonly metric = processingGauge();

  constructor(
    @Inject(ProfileEnv) env: Pick<ProfileEnv, 'PHOTO_PROCESSING_CONCURRENCY' | 'PHOTO_PROCESSING_QUEUE'>,
  ) {
    this.concurrency = env.PHOTO_PROCESSING_CONCURRENCY;
    this.queueLimit = env.PHOTO_PROCESSING_QUEUE;
  }

  /** Uploads being processed now. */
  get active(): number {
    return this.running;
  }

  /** Uploads waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Throws 503 when one more upload could not even wait; called before an upload's body is read. */
  assertRoom(): void {
    if (this.running >= this.concurrency && this.waiters.length >= this.queueLimit) throw uploadsBusy();
  }

  /** Runs `work` once a slot is free (503 at once when the queue is full). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiters.length >= this.queueLimit) throw uploadsBusy();
      // The slot is handed over by release(), so `running` never drops below the bound in between.
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    } else {
      this.running++;
    }
    this.report();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.running--;
    this.report();
  }

  private report(): void {
    this.metric.set({ state: 'active' }, this.running);
    this.metric.set({ state: 'waiting' }, this.waiters.length);
  }
}

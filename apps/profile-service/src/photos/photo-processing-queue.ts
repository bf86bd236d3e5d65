import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ProfileMessages } from '@mate/contracts';
import { AppException, gauge, tooManyRequests } from '@mate/server-kit';
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

/** 429: this member already has as many uploads in this process as one member may. */
export const memberUploadsInFlight = () =>
  tooManyRequests(ProfileMessages.tooManyUploads, UPLOADS_BUSY_RETRY_AFTER_SECONDS);

/**
 * An admitted upload's place in this process, held from before its body is read until its image
 * work is done. `release()` may be called more than once; only the first call counts.
 */
export interface UploadTicket {
  release(): void;
}

const processingGauge = () =>
  gauge<'state'>({
    name: 'mate_photo_processing',
    help: 'Photo uploads of this process admitted (state="admitted": body being read, waiting or processing), being processed (state="active") or waiting for a slot (state="waiting")',
    labelNames: ['state'],
  });

type QueueEnv = Pick<
  ProfileEnv,
  'PHOTO_PROCESSING_CONCURRENCY' | 'PHOTO_PROCESSING_QUEUE' | 'PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT'
>;

/**
 * Bounds what uploads cost one process, in two steps.
 *
 * Admission (`admit`), before an upload's body is read: at most PHOTO_PROCESSING_CONCURRENCY +
 * PHOTO_PROCESSING_QUEUE uploads hold a ticket at once, from the first byte of their body to the
 * end of their image work; the next one is refused with 503 without reading it. So at most that
 * many files (≤ 10 MB each) are ever in memory, however many arrive together. One member holds at
 * most PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT tickets; past that, 429 for that member only, so one
 * member cannot fill the process and turn everyone else away.
 *
 * Processing (`run`): at most PHOTO_PROCESSING_CONCURRENCY admitted uploads are decoded and
 * encoded at a time; the others wait for a slot (there is always room: admission bounds them).
 * A semaphore this small is written here rather than taken from a package because admission needs
 * the counts, which p-limit and friends hide (ADR 0003).
 */
@Injectable()
export class PhotoProcessingQueue {
  readonly concurrency: number;
  readonly queueLimit: number;
  readonly perMember: number;
  private running = 0;
  private readonly waiters: (() => void)[] = [];
  private readonly ticketsOf = new Map<string, number>();
  private tickets = 0;
  private readonly metric = processingGauge();

  constructor(@Inject(ProfileEnv) env: QueueEnv) {
    this.concurrency = env.PHOTO_PROCESSING_CONCURRENCY;
    this.queueLimit = env.PHOTO_PROCESSING_QUEUE;
    this.perMember = env.PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT;
  }

  /** Uploads holding a ticket: body being read, waiting, or being processed. */
  get admitted(): number {
    return this.tickets;
  }

  /** Uploads being processed now. */
  get active(): number {
    return this.running;
  }

  /** Uploads waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Tickets one member holds now. */
  admittedOf(memberId: string): number {
    return this.ticketsOf.get(memberId) ?? 0;
  }

  /**
   * Takes a ticket for an upload of `memberId` before its body is read: 429 when the member holds
   * as many as one may, else 503 when the process holds as many as it may.
   */
  admit(memberId: string): UploadTicket {
    const own = this.admittedOf(memberId);
    if (own >= this.perMember) throw memberUploadsInFlight();
    if (this.tickets >= this.concurrency + this.queueLimit) throw uploadsBusy();
    this.tickets++;
    this.ticketsOf.set(memberId, own + 1);
    this.report();
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.tickets--;
        const left = this.admittedOf(memberId) - 1;
        if (left > 0) this.ticketsOf.set(memberId, left);
        else this.ticketsOf.delete(memberId);
        this.report();
      },
    };
  }

  /**
   * Runs `work` once a slot is free. Admitted uploads always find room to wait (admission keeps
   * them to concurrency + queue); a caller that skipped admission is refused with 503 when full.
   */
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
      this.releaseSlot();
    }
  }

  private releaseSlot(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.running--;
    this.report();
  }

  private report(): void {
    this.metric.set({ state: 'admitted' }, this.tickets);
    this.metric.set({ state: 'active' }, this.running);
    this.metric.set({ state: 'waiting' }, this.waiters.length);
  }
}

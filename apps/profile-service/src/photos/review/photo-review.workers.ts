import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { isUUID } from 'class-validator';
import type { Logger } from 'pino';
import {
  PHOTO_REJECTION_REASON_MAX_LENGTH,
  QueueName,
  SERVICES,
  type PhotoAdminCommand,
  type PhotoScanJobData,
} from '@mate/contracts';
import { HealthRegistry, JobWorker, LOGGER, queueWorkerSettings } from '@mate/server-kit';
import { ProfileEnv } from '../../profile.env';
import { PhotoReviewService, type PhotoDecisionOutcome, type ScanOutcome } from './photo-review.service';

/**
 * `jobs.photo-scan`: scores one freshly uploaded photo with the offline classifier (written to the
 * outbox in the upload's transaction). One at a time per process: the classifier runs one
 * inference at a time anyway. A failed scan is retried with the outbox's backoff.
 */
@Injectable()
export class PhotoScanWorker extends JobWorker<QueueName.PhotoScan, ScanOutcome> {
  constructor(
    @Inject(ProfileEnv) env: ProfileEnv,
    private readonly review: PhotoReviewService,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, { service: SERVICES.profile, queue: QueueName.PhotoScan, concurrency: 1 }),
      logger,
      health,
    );
  }

  protected handle(data: PhotoScanJobData): Promise<ScanOutcome> {
    if (typeof data?.photoId !== 'string' || !isUUID(data.photoId))
      throw new UnrecoverableError('unreadable photo scan job');
    return this.review.scan(data.photoId.toLowerCase());
  }
}

/** A PhotoAdminCommand as it arrives from admin-service's outbox, checked field by field. */
export function readPhotoAdminCommand(data: unknown): PhotoAdminCommand | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.photoId !== 'string' || !isUUID(d.photoId)) return null;
  if (typeof d.adminId !== 'string' || !isUUID(d.adminId)) return null;
  const photoId = d.photoId.toLowerCase();
  const adminId = d.adminId.toLowerCase();
  if (d.kind === 'approve') return { kind: 'approve', photoId, adminId };
  if (d.kind !== 'reject' || typeof d.reason !== 'string') return null;
  const reason = d.reason.trim();
  if (!reason || reason.length > PHOTO_REJECTION_REASON_MAX_LENGTH) return null;
  return { kind: 'reject', photoId, adminId, reason };
}

/**
 * `jobs.photo-admin`: an admin's approve or reject, written by admin-service to its outbox in the
 * transaction of the audit entry. Idempotent; a command that cannot be read is not retried. The
 * log names the admin, never the reason.
 */
@Injectable()
export class PhotoAdminWorker extends JobWorker<QueueName.PhotoAdmin, PhotoDecisionOutcome> {
  constructor(
    @Inject(ProfileEnv) env: ProfileEnv,
    private readonly review: PhotoReviewService,
    @Inject(LOGGER) logger: Logger,
    health: HealthRegistry,
  ) {
    super(
      queueWorkerSettings(env, { service: SERVICES.profile, queue: QueueName.PhotoAdmin, concurrency: 2 }),
      logger,
      health,
    );
  }

  protected handle(data: PhotoAdminCommand): Promise<PhotoDecisionOutcome> {
    const command = readPhotoAdminCommand(data);
    if (!command) throw new UnrecoverableError('unreadable photo command');
    return this.review.decide(command);
  }
}

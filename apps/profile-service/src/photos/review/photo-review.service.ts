import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { DataSource, type EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import {
  photoRisk,
  type AdminPhotoPart,
  type AdminProfilePart,
  type AdminProfileSummaryPart,
  type PendingPhotosPart,
  type PhotoAdminCommand,
  type PhotoScores,
} from '@mate/contracts';
import { LOGGER, OutboxService } from '@mate/server-kit';
import { ProfileEnv } from '../../profile.env';
import { ProfilesRepository } from '../../profiles/profiles.repository';
import { ProfilesService } from '../../profiles/profiles.service';
import { PHOTO_CLASSIFIER, type PhotoClassifier } from '../classifier/photo-classifier';
import { Photo } from '../photo.entity';
import { fileKeyOf, PHOTO_SIZE_NAMES } from '../photos.service';
import { PhotosRepository } from '../photos.repository';
import { PHOTO_STORAGE, type PhotoStorage } from '../storage/photo-storage';

/** The admin's queue shows at most this many photos (the riskiest). */
export const PENDING_PHOTOS_MAX = 200;
/** `?ids=` of the admin's profile summaries takes at most this many. */
export const ADMIN_PROFILE_IDS_MAX = 200;

export type ScanOutcome = 'scored' | 'skipped';
/** `done`: carried out; `already`: the same decision was made before; `refused`: decided otherwise; `unknown`: no such photo. */
export type PhotoDecisionOutcome = 'done' | 'already' | 'refused' | 'unknown';

/** The size the classifier reads (it squeezes it to 224 × 224): small to decode, enough detail. */
const SCAN_SIZES = ['medium', 'large', 'thumb'] as const;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * Photo review (issue 13): the classifier's scoring of each uploaded photo (`jobs.photo-scan`), an
 * admin's approve and reject (`jobs.photo-admin`), and what admin-service reads of profiles and
 * photos. Each change runs under the owner's profile lock, publishes `photo.moderated` in its
 * transaction, and republishes `profile.updated` when what other members see changed.
 */
@Injectable()
export class PhotoReviewService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly photos: PhotosRepository,
    private readonly profiles: ProfilesRepository,
    private readonly profileService: ProfilesService,
    private readonly outbox: OutboxService,
    @Inject(ProfileEnv) private readonly env: ProfileEnv,
    @Inject(PHOTO_CLASSIFIER) private readonly classifier: PhotoClassifier,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Scores one photo once. A photo gone, rejected, already scored or without stored files is left
   * alone. A pending photo above the threshold is hidden from other members until approved; an
   * approved one (an admin decided before the scan) stays visible.
   */
  async scan(photoId: string): Promise<ScanOutcome> {
    const photo = await this.photos.findAnyStatus(photoId);
    if (!photo || photo.moderationStatus === 'rejected' || photo.scannedAt || !photo.storageKey) return 'skipped';
    const image = await this.readImage(photo.storageKey);
    if (!image) return 'skipped';
    const started = performance.now();
    const scores = await this.classifier.score(image);
    const ms = Math.round(performance.now() - started);
    const riskScore = photoRisk(scores);

    return this.dataSource.transaction(async (manager) => {
      const locked = await this.lockPhoto(manager, photo.userId, photoId);
      if (!locked || locked.photo.moderationStatus === 'rejected' || locked.photo.scannedAt) return 'skipped';
      const current = locked.photo;
      const hidden = current.moderationStatus === 'pending' && riskScore > this.env.PHOTO_RISK_THRESHOLD;
      await this.photos.recordScan(manager, photoId, scores as PhotoScores, riskScore, hidden);
      await this.publishModerated(manager, current, 'scored', riskScore, hidden, null);
      if (hidden !== current.hiddenFromMembers && locked.profile)
        await this.profileService.publishUpdated(manager, current.userId, locked.profile);
      this.logger.info({ photoId, riskScore, hidden, ms }, 'photo scored');
      return 'scored';
    });
  }

  /**
   * Scores every photo that has stored files and no scores yet (photos a seeder wrote straight into
   * the table, or uploaded before the classifier), oldest first. Answers how many it scored.
   */
  async scanUnscored(batchSize = 100): Promise<number> {
    let scored = 0;
    const tried = new Set<string>();
    for (;;) {
      const ids = await this.photos.unscoredIds(batchSize, [...tried]);
      if (ids.length === 0) return scored;
      for (const id of ids) {
        tried.add(id);
        try {
          if ((await this.scan(id)) === 'scored') scored += 1;
        } catch (err) {
          this.logger.warn({ photoId: id, err }, 'photo could not be scored');
        }
      }
    }
  }

  /** An admin's decision; only a pending photo moves, and the same decision twice does it once. */
  async decide(command: PhotoAdminCommand): Promise<PhotoDecisionOutcome> {
    const photo = await this.photos.findAnyStatus(command.photoId);
    if (!photo) return 'unknown';
    const decided = command.kind === 'approve' ? 'approved' : 'rejected';
    const result = await this.dataSource.transaction(async (manager) => {
      const locked = await this.lockPhoto(manager, photo.userId, photo.id);
      if (!locked) return { outcome: 'unknown' as const };
      const current = locked.photo;
      if (current.moderationStatus !== 'pending')
        return { outcome: current.moderationStatus === decided ? ('already' as const) : ('refused' as const), current };
      const now = new Date();
      if (command.kind === 'approve') {
        await this.photos.approve(manager, current.id, now);
        await this.publishModerated(manager, current, 'approved', current.riskScore, false, null);
        if (current.hiddenFromMembers && locked.profile)
          await this.profileService.publishUpdated(manager, current.userId, locked.profile);
      } else {
        await this.photos.reject(manager, current.id, command.reason, now);
        if (locked.profile) {
          await this.photos.normalise(manager, locked.profile.id);
          await this.profileService.publishUpdated(manager, current.userId, locked.profile);
        }
        await this.publishModerated(manager, current, 'rejected', current.riskScore, true, command.reason);
      }
      return { outcome: 'done' as const, current };
    });
    // A rejected photo's files go once its row says so (again on a repeated reject: a failed delete
    // only left files behind).
    if (command.kind === 'reject' && result.outcome !== 'unknown' && result.outcome !== 'refused' && photo.storageKey)
      await this.removeFiles(photo.storageKey);
    this.logger.info(
      { photoId: command.photoId, adminId: command.adminId, kind: command.kind, outcome: result.outcome },
      'photo decision',
    );
    return result.outcome;
  }

  /** The queue: pending photos, riskiest first, unscored after scored ones, oldest first; today's decisions. */
  async pendingPhotos(): Promise<PendingPhotosPart> {
    const rows = await this.photos.pendingReview(PENDING_PHOTOS_MAX);
    const stats = await this.photos.reviewStats();
    return {
      photos: rows.map((r) => ({
        id: r.id,
        url: r.url,
        userId: r.user_id,
        createdAt: new Date(r.created_at).toISOString(),
        riskScore: r.risk_score === null ? null : Number(r.risk_score),
        scores: r.scores,
        hiddenFromMembers: r.hidden_from_members,
      })),
      stats: {
        totalPending: Number(stats?.total_pending ?? 0),
        approvedToday: Number(stats?.approved_today ?? 0),
        rejectedToday: Number(stats?.rejected_today ?? 0),
      },
    };
  }

  /** One photo, any status; null when there is none. A rejected photo has no files, so no URL. */
  async photo(photoId: string): Promise<AdminPhotoPart | null> {
    const photo = await this.photos.findAnyStatus(photoId);
    if (!photo) return null;
    return {
      id: photo.id,
      userId: photo.userId,
      url: photo.moderationStatus === 'rejected' ? null : photo.url,
      status: photo.moderationStatus,
      riskScore: photo.riskScore === null ? null : Number(photo.riskScore),
      createdAt: photo.createdAt.toISOString(),
    };
  }

  /** A member's profile as admins see it: every photo but rejected ones, hidden ones included. */
  async profile(userId: string): Promise<AdminProfilePart | null> {
    const profile = await this.profiles.findByUserId(userId);
    if (!profile) return null;
    const photos = await this.profiles.photosOf(profile.id);
    return {
      userId: profile.userId,
      name: profile.name,
      age: profile.age,
      gender: profile.gender,
      location: profile.location,
      bio: profile.bio,
      photos: photos.map((p) => ({ id: p.id, url: p.url })),
    };
  }

  async profileSummaries(userIds: string[]): Promise<AdminProfileSummaryPart[]> {
    if (userIds.length === 0) return [];
    const rows = await this.profiles.summariesOf(userIds);
    return rows.map((r) => ({ userId: r.user_id, name: r.name, age: r.age, gender: r.gender }));
  }

  private async lockPhoto(manager: EntityManager, userId: string, photoId: string) {
    // The owner's profile lock first, as every photo change takes it (then the row itself).
    const profile = await this.profiles.lockByUserId(manager, userId);
    const photo = await this.photos.lockAnyStatus(manager, photoId);
    return photo ? { profile, photo } : null;
  }

  private publishModerated(
    manager: EntityManager,
    photo: Photo,
    outcome: 'scored' | 'approved' | 'rejected',
    riskScore: number | null,
    hidden: boolean,
    reason: string | null,
  ) {
    return this.outbox.publish(manager, 'photo.moderated', {
      photoId: photo.id,
      userId: photo.userId,
      outcome,
      riskScore: riskScore === null ? null : Number(riskScore),
      hidden,
      reason,
      at: new Date().toISOString(),
    });
  }

  private async readImage(storageKey: string): Promise<Buffer | null> {
    for (const size of SCAN_SIZES) {
      const stream = await this.storage.get(fileKeyOf(storageKey, size));
      if (stream) return readAll(stream);
    }
    return null;
  }

  private async removeFiles(storageKey: string): Promise<void> {
    const results = await Promise.allSettled(PHOTO_SIZE_NAMES.map((size) => this.storage.delete(fileKeyOf(storageKey, size))));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Thrown, so the job is retried: a rejected photo's files must go.
    if (failed) throw failed.reason;
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { PhotoScores } from '@mate/contracts';
import { Photo } from './photo.entity';

/** A photo in the admin's review queue. */
export interface PendingPhotoRow {
  id: string;
  url: string;
  user_id: string;
  created_at: Date;
  risk_score: number | null;
  scores: PhotoScores | null;
  hidden_from_members: boolean;
}

/** The review queue's counts (bigint counts come as text). */
export interface PhotoReviewStatsRow {
  total_pending: string;
  approved_today: string;
  rejected_today: string;
}

/** $1 how many, $2 ids already tried. */
const UNSCORED_PHOTOS = `SELECT id FROM photos
          WHERE scanned_at IS NULL AND moderation_status <> 'rejected' AND storage_key IS NOT NULL AND NOT (id = ANY($2::uuid[]))
          ORDER BY created_at, id LIMIT $1`;

const PENDING_PHOTOS = `SELECT id, url, user_id, created_at, risk_score, scores, hidden_from_members FROM photos
        WHERE moderation_status = 'pending'
        ORDER BY risk_score DESC NULLS LAST, created_at ASC, id ASC
        LIMIT $1`;

/** Today is the UTC day. */
const STORAGE_KEYS_OF_MEMBER = 'SELECT storage_key FROM photos WHERE user_id = $1';

const ERASE_MEMBER_PHOTOS = 'DELETE FROM photos WHERE user_id = $1';

const REVIEW_STATS = `SELECT count(*) FILTER (WHERE moderation_status = 'pending') AS total_pending,
                count(*) FILTER (WHERE moderation_status = 'approved' AND moderated_at >= d.start) AS approved_today,
                count(*) FILTER (WHERE moderation_status = 'rejected' AND moderated_at >= d.start) AS rejected_today
           FROM photos, (SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS start) d
          WHERE moderation_status = 'pending' OR moderated_at >= d.start`;

/** The SQL of photos. Callers hold the owner's profile lock while they change anything. */
@Injectable()
export class PhotosRepository {
  constructor(private readonly dataSource: DataSource) {}

  private visible(manager: EntityManager) {
    return manager.getRepository(Photo).createQueryBuilder('ph').where("ph.moderation_status <> 'rejected'");
  }

  /** A member's visible photos in display order. */
  listOfUser(userId: string, manager: EntityManager = this.dataSource.manager): Promise<Photo[]> {
    return this.visible(manager)
      .andWhere('ph.user_id = :userId', { userId })
      .orderBy('ph.order', 'ASC')
      .addOrderBy('ph.created_at', 'ASC')
      .addOrderBy('ph.id', 'ASC')
      .getMany();
  }

  countOfProfile(profileId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    return this.visible(manager).andWhere('ph.profile_id = :profileId', { profileId }).getCount();
  }

  /** One of the member's visible photos, or null (someone else's, rejected, or not there). */
  findOwn(manager: EntityManager, userId: string, photoId: string): Promise<Photo | null> {
    return this.visible(manager)
      .andWhere('ph.id = :photoId AND ph.user_id = :userId', { photoId, userId })
      .getOne();
  }

  /** A visible photo that has stored files, for serving them. */
  findServable(photoId: string): Promise<Photo | null> {
    return this.visible(this.dataSource.manager)
      .andWhere('ph.id = :photoId AND ph.storage_key IS NOT NULL', { photoId })
      .getOne();
  }

  async insert(
    manager: EntityManager,
    photo: Omit<
      Photo,
      | 'createdAt'
      | 'moderatedAt'
      | 'rejectionReason'
      | 'moderationStatus'
      | 'scores'
      | 'riskScore'
      | 'scannedAt'
    >,
  ) {
    await manager.getRepository(Photo).insert(photo);
  }

  async delete(manager: EntityManager, photoId: string): Promise<void> {
    await manager.getRepository(Photo).delete({ id: photoId });
  }

  /** The storage key of each of the member's photo rows, any status (their erasure deletes the files). */
  async storageKeysOf(manager: EntityManager, userId: string): Promise<(string | null)[]> {
    const rows = await manager.query<{ storage_key: string | null }[]>(STORAGE_KEYS_OF_MEMBER, [userId]);
    return rows.map((r) => r.storage_key);
  }

  /** Deletes every photo row of the member (their erasure; the files go first). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_MEMBER_PHOTOS, [userId]);
  }

  /** Every photo row of the member, rejected ones too, in display order (their data export). */
  allOfUser(userId: string): Promise<Photo[]> {
    return this.dataSource
      .getRepository(Photo)
      .createQueryBuilder('ph')
      .where('ph.user_id = :userId', { userId })
      .orderBy('ph.order', 'ASC')
      .addOrderBy('ph.created_at', 'ASC')
      .addOrderBy('ph.id', 'ASC')
      .getMany();
  }

  /** One photo, any status (rejected too), or null. */
  findAnyStatus(photoId: string): Promise<Photo | null> {
    return this.dataSource.getRepository(Photo).findOneBy({ id: photoId });
  }

  /** One photo, any status, locked until the transaction ends (take the owner's profile lock first). */
  lockAnyStatus(manager: EntityManager, photoId: string): Promise<Photo | null> {
    return manager
      .getRepository(Photo)
      .createQueryBuilder('ph')
      .setLock('pessimistic_write')
      .where('ph.id = :photoId', { photoId })
      .getOne();
  }

  /** Photos with stored files and no scores yet, oldest first, leaving out those already tried. */
  async unscoredIds(limit: number, tried: string[]): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(UNSCORED_PHOTOS, [limit, tried]);
    return rows.map((r) => r.id);
  }

  async recordScan(manager: EntityManager, photoId: string, scores: PhotoScores, riskScore: number, hidden: boolean): Promise<void> {
    await manager
      .getRepository(Photo)
      .update({ id: photoId }, { scores, riskScore, scannedAt: new Date(), hiddenFromMembers: hidden });
  }

  async approve(manager: EntityManager, photoId: string, at: Date): Promise<void> {
    await manager.getRepository(Photo).update({ id: photoId }, { moderationStatus: 'approved', moderatedAt: at, hiddenFromMembers: false });
  }

  /** Rejected: hidden, never primary (the caller normalises the profile's photos after). */
  async reject(manager: EntityManager, photoId: string, reason: string, at: Date): Promise<void> {
    await manager.getRepository(Photo).update(
      { id: photoId },
      { moderationStatus: 'rejected', rejectionReason: reason, moderatedAt: at, hiddenFromMembers: true, isPrimary: false },
    );
  }

  /** Pending photos, riskiest first, unscored after scored ones, oldest first, at most `limit`. */
  pendingReview(limit: number): Promise<PendingPhotoRow[]> {
    return this.dataSource.query(PENDING_PHOTOS, [limit]);
  }

  /** Pending photos, and photos approved and rejected today. */
  async reviewStats(): Promise<PhotoReviewStatsRow | undefined> {
    const [stats]: PhotoReviewStatsRow[] = await this.dataSource.query(REVIEW_STATS);
    return stats;
  }

  /** Makes this photo the only primary one (two steps: the one-primary index checks each row). */
  async setPrimary(manager: EntityManager, profileId: string, photoId: string): Promise<void> {
    await manager.query(
      'UPDATE photos SET is_primary = false WHERE profile_id = $1 AND is_primary AND id <> $2',
      [profileId, photoId],
    );
    await manager.query('UPDATE photos SET is_primary = true WHERE id = $1 AND NOT is_primary', [photoId]);
  }

  /** Orders 0..n-1 following the ids given (the member's visible photos, each once). */
  async applyOrder(manager: EntityManager, photoIds: string[]): Promise<void> {
    await manager.query(
      `UPDATE photos p SET "order" = x.ord - 1
         FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, ord)
        WHERE p.id = x.id AND p."order" <> x.ord - 1`,
      [photoIds],
    );
  }

  /**
   * Restores the two photo rules after a change: visible photos ordered 0..n-1 (keeping their
   * order), and exactly one primary among them (the first, when none is).
   */
  async normalise(manager: EntityManager, profileId: string): Promise<void> {
    const rows: { id: string; is_primary: boolean }[] = await manager.query(
      `SELECT id, is_primary FROM photos
        WHERE profile_id = $1 AND moderation_status <> 'rejected'
        ORDER BY "order", created_at, id`,
      [profileId],
    );
    await this.applyOrder(
      manager,
      rows.map((r) => r.id),
    );
    if (rows.length > 0 && !rows.some((r) => r.is_primary))
      await this.setPrimary(manager, profileId, rows[0].id);
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Photo } from './photo.entity';

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

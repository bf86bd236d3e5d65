import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Photo } from '../photos/photo.entity';
import { Profile } from './profile.entity';

export interface RegistrationFields {
  userId: string;
  name: string | null;
  age: number | null;
}

/** Columns a member (or onboarding) may change, with the private location columns. */
export type ProfilePatch = Partial<
  Pick<
    Profile,
    | 'name'
    | 'age'
    | 'gender'
    | 'bio'
    | 'location'
    | 'locationLat'
    | 'locationLng'
    | 'locationResolved'
    | 'height'
    | 'occupation'
    | 'education'
    | 'lookingFor'
    | 'interests'
    | 'smoking'
    | 'drinking'
    | 'exercise'
    | 'pets'
    | 'onboardingCompleted'
    | 'onboardingSkipped'
  >
>;

/** The SQL of profiles (and the photo reads a profile answer needs). */
@Injectable()
export class ProfilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates the profile from the registration. When a profile already exists (the verification
   * arrived first, or this is a second registration event) only fields still empty are filled,
   * so nothing the member or an earlier event set is overwritten. True when a row changed.
   */
  async upsertFromRegistration(manager: EntityManager, fields: RegistrationFields): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO profiles (user_id, name, age) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
         SET name = COALESCE(profiles.name, EXCLUDED.name),
             age = COALESCE(profiles.age, EXCLUDED.age),
             updated_at = now()
         WHERE (profiles.name IS NULL AND EXCLUDED.name IS NOT NULL)
            OR (profiles.age IS NULL AND EXCLUDED.age IS NOT NULL)
       RETURNING id`,
      [fields.userId, fields.name, fields.age],
    );
    return rows.length > 0;
  }

  /** Marks the profile verified, creating it (verified) when the registration has not arrived yet. */
  async upsertVerified(manager: EntityManager, userId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO profiles (user_id, is_verified) VALUES ($1, true)
       ON CONFLICT (user_id) DO UPDATE SET is_verified = true, updated_at = now()
         WHERE NOT profiles.is_verified
       RETURNING id`,
      [userId],
    );
    return rows.length > 0;
  }

  findByUserId(userId: string, manager: EntityManager = this.dataSource.manager): Promise<Profile | null> {
    return manager.getRepository(Profile).findOne({ where: { userId } });
  }

  /**
   * The profile, locked until the transaction ends: every change to a member's profile or photos
   * takes this lock first, so two requests of one member run one after the other.
   */
  lockByUserId(manager: EntityManager, userId: string): Promise<Profile | null> {
    return manager
      .getRepository(Profile)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.user_id = :userId', { userId })
      .getOne();
  }

  /** Profiles whose location text was never geocoded (written by a seeder or before geocoding). */
  ungeocoded(limit: number): Promise<Profile[]> {
    return this.dataSource
      .getRepository(Profile)
      .createQueryBuilder('p')
      .where('p.location IS NOT NULL AND p.location_resolved IS NULL')
      .orderBy('p.created_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * Profiles whose location was geocoded and not found, after `afterId` in id order (keyset
   * pages: a place still unknown stays in the set, so offsets would skip rows).
   */
  unresolvedLocations(afterId: string | null, limit: number): Promise<Pick<Profile, 'id' | 'userId' | 'location'>[]> {
    const query = this.dataSource
      .getRepository(Profile)
      .createQueryBuilder('p')
      .select(['p.id', 'p.userId', 'p.location'])
      .where('p.location IS NOT NULL AND p.location_resolved = false');
    if (afterId) query.andWhere('p.id > :afterId', { afterId });
    return query.orderBy('p.id', 'ASC').limit(limit).getMany();
  }

  /**
   * Writes the changed columns and answers the profile as stored, in one round trip (`RETURNING`;
   * it was an UPDATE and a re-read: issue 27). `profile` is the row read under the lock.
   */
  async update(manager: EntityManager, profile: Profile, patch: ProfilePatch): Promise<Profile> {
    const result = await manager
      .createQueryBuilder()
      .update(Profile)
      .set(patch)
      .where('id = :id', { id: profile.id })
      .returning('*')
      .execute();
    const [row] = result.raw as Record<string, unknown>[];
    if (!row) return profile;
    const stored: Record<string, unknown> = { ...profile };
    for (const column of manager.connection.getMetadata(Profile).columns) {
      stored[column.propertyName] = row[column.databaseName];
    }
    return manager.getRepository(Profile).create(stored as Partial<Profile>);
  }

  /** Visible (not rejected) photos in display order. */
  photosOf(profileId: string, manager: EntityManager = this.dataSource.manager): Promise<Photo[]> {
    return manager
      .getRepository(Photo)
      .createQueryBuilder('ph')
      .where('ph.profile_id = :profileId', { profileId })
      .andWhere("ph.moderation_status <> 'rejected'")
      .orderBy('ph.order', 'ASC')
      .addOrderBy('ph.created_at', 'ASC')
      .getMany();
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { SqlStatement } from '@mate/server-kit';
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

/** The columns of the fields a patch may change (the `Profile` entity's column names). */
const PATCH_COLUMNS: Record<keyof ProfilePatch, string> = {
  name: 'name',
  age: 'age',
  gender: 'gender',
  bio: 'bio',
  location: 'location',
  locationLat: 'location_lat',
  locationLng: 'location_lng',
  locationResolved: 'location_resolved',
  height: 'height',
  occupation: 'occupation',
  education: 'education',
  lookingFor: 'looking_for',
  interests: 'interests',
  smoking: 'smoking',
  drinking: 'drinking',
  exercise: 'exercise',
  pets: 'pets',
  onboardingCompleted: 'onboarding_completed',
  onboardingSkipped: 'onboarding_skipped',
};

/**
 * The profile locked for a change, its visible photos in display order, and the transaction's
 * time (`now()`, what a change in this transaction stamps into `updated_at`).
 */
const USER_IDS_AFTER = 'SELECT user_id FROM profiles WHERE user_id > $1 ORDER BY user_id LIMIT $2';

const LOCK_PROFILE_FOR_ERASURE = 'SELECT id FROM profiles WHERE user_id = $1 FOR UPDATE';

const ERASE_PROFILE = 'DELETE FROM profiles WHERE user_id = $1';

const PROFILE_SUMMARIES = 'SELECT user_id, name, age, gender FROM profiles WHERE user_id = ANY($1::uuid[])';

export interface LockedProfile {
  profile: Profile;
  photos: Photo[];
  now: Date;
}

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

  /**
   * Locks the member's profile row (their erasure): an upload or edit of theirs still in flight
   * finishes first, or finds no profile afterwards.
   */
  async lockForErasure(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(LOCK_PROFILE_FOR_ERASURE, [userId]);
  }

  /** Deletes the member's profile row (their erasure). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_PROFILE, [userId]);
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
   * `lockByUserId` and `photosOf` in one round trip (issue 27: a member's edit is the hot write
   * path): the profile row locked until the transaction ends, its visible photos in display
   * order, and the transaction's time.
   */
  async lockWithPhotos(manager: EntityManager, userId: string): Promise<LockedProfile | null> {
    const rows: (Record<string, unknown> & { photos: Record<string, unknown>[]; tx_now: Date })[] = await manager.query(
      `SELECT p.*, now() AS tx_now,
              COALESCE((SELECT json_agg(ph ORDER BY ph."order", ph.created_at) FROM photos ph
                         WHERE ph.profile_id = p.id AND ph.moderation_status <> 'rejected'), '[]') AS photos
         FROM profiles p WHERE p.user_id = $1
          FOR UPDATE OF p`,
      [userId],
    );
    const [row] = rows;
    if (!row) return null;
    return {
      profile: this.entityOf(manager, Profile, row),
      photos: row.photos.map((photo) => this.entityOf(manager, Photo, photo)),
      now: row.tx_now,
    };
  }

  /**
   * The UPDATE that writes a patch, for `OutboxService.publishWithChange` (the change and its
   * event in one statement). `updated_at` becomes the transaction's time, as `LockedProfile.now`
   * says; `changed` applies the same patch to the locked profile, so the event and the answer
   * carry what this stores without reading it back.
   */
  updateStatement(profileId: string, patch: ProfilePatch): SqlStatement {
    const fields = Object.keys(patch) as (keyof ProfilePatch)[];
    const sets = fields.map((field, i) => `${PATCH_COLUMNS[field]} = $${i + 2}`);
    return {
      sql: `UPDATE profiles SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING id`,
      params: [profileId, ...fields.map((field) => patch[field])],
    };
  }

  /** The profile as `updateStatement(profile.id, patch)` leaves it, in a transaction of time `now`. */
  changed(manager: EntityManager, profile: Profile, patch: ProfilePatch, now: Date): Profile {
    return manager.getRepository(Profile).create({ ...profile, ...patch, updatedAt: now });
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

  /** Members with a profile, by id ascending, after `after`, at most `limit`. */
  async userIdsAfter(after: string, limit: number): Promise<string[]> {
    const rows: { user_id: string }[] = await this.dataSource.query(USER_IDS_AFTER, [after, limit]);
    return rows.map((r) => r.user_id);
  }

  /** The name, age and gender of the profiles of these members that exist. */
  summariesOf(userIds: string[]): Promise<{ user_id: string; name: string | null; age: number | null; gender: string | null }[]> {
    return this.dataSource.query(PROFILE_SUMMARIES, [userIds]);
  }

  /**
   * An entity from a row of its table read with raw SQL (column names), or from `json_agg` of it:
   * timestamps come as text from JSON and are made dates again.
   */
  private entityOf<E extends object>(manager: EntityManager, entity: new () => E, row: Record<string, unknown>): E {
    const values: Record<string, unknown> = {};
    for (const column of manager.connection.getMetadata(entity).columns) {
      const value = row[column.databaseName];
      values[column.propertyName] =
        typeof value === 'string' && (column.type === 'timestamptz' || column.type === Date) ? new Date(value) : value;
    }
    return manager.getRepository(entity).create(values as E);
  }
}

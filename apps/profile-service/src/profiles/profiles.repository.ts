import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Photo } from './photo.entity';
import { Profile } from './profile.entity';

export interface RegistrationFields {
  userId: string;
  name: string | null;
  age: number | null;
}

/** The SQL of profiles and photos. */
@Injectable()
export class ProfilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates the profile from the registration. When a profile already exists (the verification
   * arrived first, or this is a second registration event) only fields still empty are filled,
   * so nothing the member or an earlier event set is overwritten.
   */
  async upsertFromRegistration(manager: EntityManager, fields: RegistrationFields): Promise<void> {
    await manager.query(
      `INSERT INTO profiles (user_id, name, age) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
         SET name = COALESCE(profiles.name, EXCLUDED.name),
             age = COALESCE(profiles.age, EXCLUDED.age),
             updated_at = now()
         WHERE (profiles.name IS NULL AND EXCLUDED.name IS NOT NULL)
            OR (profiles.age IS NULL AND EXCLUDED.age IS NOT NULL)`,
      [fields.userId, fields.name, fields.age],
    );
  }

  /** Marks the profile verified, creating it (verified) when the registration has not arrived yet. */
  async upsertVerified(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `INSERT INTO profiles (user_id, is_verified) VALUES ($1, true)
       ON CONFLICT (user_id) DO UPDATE SET is_verified = true, updated_at = now()
         WHERE NOT profiles.is_verified`,
      [userId],
    );
  }

  /** Returns false when the user has no profile. Repeating it changes nothing. */
  async markOnboardingCompleted(userId: string): Promise<boolean> {
    // Wrapped in a CTE: TypeORM answers a bare UPDATE with [rows, count] rather than rows.
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH updated AS (
         UPDATE profiles
            SET onboarding_completed = true,
                updated_at = CASE WHEN onboarding_completed THEN updated_at ELSE now() END
          WHERE user_id = $1
          RETURNING id
       )
       SELECT id FROM updated`,
      [userId],
    );
    return rows.length > 0;
  }

  findByUserId(userId: string): Promise<Profile | null> {
    return this.dataSource.getRepository(Profile).findOne({ where: { userId } });
  }

  photosOf(profileId: string): Promise<Photo[]> {
    return this.dataSource
      .getRepository(Photo)
      .find({ where: { profileId }, order: { order: 'ASC', createdAt: 'ASC' } });
  }
}

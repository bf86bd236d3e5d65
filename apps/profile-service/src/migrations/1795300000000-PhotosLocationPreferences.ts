import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Geocoded locations (private coordinates), onboarding skip flag, stored photo files with their
 * moderation state, and one preferences row per member (match and filter preferences together).
 */
export class PhotosLocationPreferences1795300000000 implements MigrationInterface {
  name = 'PhotosLocationPreferences1795300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles
      ADD COLUMN location_lat double precision NULL,
      ADD COLUMN location_lng double precision NULL,
      ADD COLUMN location_resolved boolean NULL,
      ADD COLUMN onboarding_skipped boolean NOT NULL DEFAULT false,
      ADD CONSTRAINT profiles_location_pair_check CHECK ((location_lat IS NULL) = (location_lng IS NULL)),
      ADD CONSTRAINT profiles_location_lat_check CHECK (location_lat IS NULL OR location_lat BETWEEN -90 AND 90),
      ADD CONSTRAINT profiles_location_lng_check CHECK (location_lng IS NULL OR location_lng BETWEEN -180 AND 180)`);

    await q.query(`ALTER TABLE photos
      ADD COLUMN storage_key text NULL,
      ADD COLUMN sizes jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN moderation_status varchar(20) NOT NULL DEFAULT 'pending',
      ADD COLUMN moderated_at timestamptz NULL,
      ADD COLUMN rejection_reason text NULL,
      ADD CONSTRAINT photos_moderation_status_check
        CHECK (moderation_status IN ('pending', 'approved', 'rejected'))`);
    await q.query('CREATE INDEX photos_user_id_idx ON photos (user_id)');
    await q.query(
      "CREATE INDEX photos_pending_idx ON photos (created_at) WHERE moderation_status = 'pending'",
    );

    await q.query(`CREATE TABLE preferences (
      user_id uuid PRIMARY KEY,
      min_age int NOT NULL DEFAULT 18,
      max_age int NOT NULL DEFAULT 99,
      max_distance int NOT NULL DEFAULT 50,
      gender_preference text[] NOT NULL DEFAULT '{}',
      interests text[] NOT NULL DEFAULT '{}',
      dealbreakers text[] NOT NULL DEFAULT '{}',
      min_height int NULL,
      max_height int NULL,
      education_preference text[] NOT NULL DEFAULT '{}',
      relationship_goal_preference text[] NOT NULL DEFAULT '{}',
      smoking_preference text[] NOT NULL DEFAULT '{}',
      drinking_preference text[] NOT NULL DEFAULT '{}',
      exercise_preference text[] NOT NULL DEFAULT '{}',
      pets_preference text[] NOT NULL DEFAULT '{}',
      required_interests text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT preferences_age_check CHECK (min_age BETWEEN 18 AND 99 AND max_age BETWEEN 18 AND 99 AND min_age <= max_age),
      CONSTRAINT preferences_distance_check CHECK (max_distance BETWEEN 1 AND 200),
      CONSTRAINT preferences_height_check CHECK (
        (min_height IS NULL OR min_height BETWEEN 140 AND 220)
        AND (max_height IS NULL OR max_height BETWEEN 140 AND 220)
        AND (min_height IS NULL OR max_height IS NULL OR min_height <= max_height))
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS preferences');
    await q.query('DROP INDEX IF EXISTS photos_pending_idx');
    await q.query('DROP INDEX IF EXISTS photos_user_id_idx');
    await q.query(`ALTER TABLE photos
      DROP CONSTRAINT IF EXISTS photos_moderation_status_check,
      DROP COLUMN IF EXISTS rejection_reason,
      DROP COLUMN IF EXISTS moderated_at,
      DROP COLUMN IF EXISTS moderation_status,
      DROP COLUMN IF EXISTS sizes,
      DROP COLUMN IF EXISTS storage_key`);
    await q.query(`ALTER TABLE profiles
      DROP CONSTRAINT IF EXISTS profiles_location_lng_check,
      DROP CONSTRAINT IF EXISTS profiles_location_lat_check,
      DROP CONSTRAINT IF EXISTS profiles_location_pair_check,
      DROP COLUMN IF EXISTS onboarding_skipped,
      DROP COLUMN IF EXISTS location_resolved,
      DROP COLUMN IF EXISTS location_lng,
      DROP COLUMN IF EXISTS location_lat`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * matching-service's own tables (issue 8): the candidate projection fed by profile.updated and
 * preferences.updated, the swipes, the matches and the impressions served.
 *
 * `candidate_pool_idx` is the index the candidate query walks (see src/candidates/candidate.repository.ts):
 * suggestible members grouped by place (city centre; NaN = no known place), then by interested-in
 * gender ('' = not said), then in random `pool_key` order, with the member's age (0 = not said),
 * age range, maximum distance and whether their gender list takes each group checked on the
 * index entry before any row is read. The expressions must stay identical to the query's.
 */
export class CreateMatching1795500000000 implements MigrationInterface {
  name = 'CreateMatching1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE candidate (
      user_id uuid PRIMARY KEY,
      name varchar(100) NULL,
      age int NULL,
      gender varchar(30) NULL,
      gender_group varchar(20) NULL,
      looking_for varchar(30) NULL,
      goals text[] NOT NULL DEFAULT '{}',
      interests text[] NOT NULL DEFAULT '{}',
      height int NULL,
      education varchar(100) NULL,
      education_value varchar(30) NULL,
      smoking varchar(30) NULL,
      drinking varchar(30) NULL,
      exercise varchar(30) NULL,
      pets varchar(30) NULL,
      bio text NULL,
      occupation varchar(100) NULL,
      location_text varchar(200) NULL,
      lat double precision NULL,
      lng double precision NULL,
      profile_picture varchar(300) NULL,
      photos jsonb NOT NULL DEFAULT '[]',
      is_verified boolean NOT NULL DEFAULT false,
      onboarding_completed boolean NOT NULL DEFAULT false,
      has_photo boolean NOT NULL DEFAULT false,
      suspended boolean NOT NULL DEFAULT false,
      deleted boolean NOT NULL DEFAULT false,
      suggestible boolean GENERATED ALWAYS AS
        (is_verified AND onboarding_completed AND has_photo AND NOT suspended AND NOT deleted) STORED,
      min_age int NOT NULL DEFAULT 18,
      max_age int NOT NULL DEFAULT 99,
      max_distance int NOT NULL DEFAULT 50,
      gender_preference text[] NOT NULL DEFAULT '{}',
      min_height int NULL,
      max_height int NULL,
      education_preference text[] NOT NULL DEFAULT '{}',
      relationship_goal_preference text[] NOT NULL DEFAULT '{}',
      smoking_preference text[] NOT NULL DEFAULT '{}',
      drinking_preference text[] NOT NULL DEFAULT '{}',
      exercise_preference text[] NOT NULL DEFAULT '{}',
      pets_preference text[] NOT NULL DEFAULT '{}',
      required_interests text[] NOT NULL DEFAULT '{}',
      preferred_interests text[] NOT NULL DEFAULT '{}',
      dealbreakers text[] NOT NULL DEFAULT '{}',
      pool_key double precision NOT NULL DEFAULT random(),
      profile_updated_at timestamptz NULL,
      preferences_updated_at timestamptz NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT candidate_place_check CHECK ((lat IS NULL) = (lng IS NULL))
    )`);
    await q.query(`CREATE INDEX candidate_pool_idx ON candidate (
      (coalesce(lat, 'NaN')), (coalesce(lng, 'NaN')), (coalesce(gender_group, '')), pool_key,
      (coalesce(age, 0)), min_age, max_age, max_distance,
      (cardinality(gender_preference) = 0 OR 'male' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'female' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'non-binary' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'other' = ANY (gender_preference))
    ) WHERE suggestible`);
    // Great-circle distance between two points (haversine, mean earth radius); null when a point is unknown.
    await q.query(`CREATE FUNCTION great_circle_km(lat1 double precision, lng1 double precision,
        lat2 double precision, lng2 double precision) RETURNS double precision
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT 2 * 6371.0088 * asin(least(1, sqrt(
        sin(radians(lat2 - lat1) / 2) ^ 2
        + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lng2 - lng1) / 2) ^ 2))) $$`);

    await q.query(`CREATE TABLE swipe (
      swiper_id uuid NOT NULL,
      target_id uuid NOT NULL,
      liked boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (swiper_id, target_id)
    )`);
    await q.query('CREATE INDEX swipe_liked_target_idx ON swipe (target_id) WHERE liked');
    await q.query('CREATE INDEX swipe_swiper_recent_idx ON swipe (swiper_id, created_at DESC)');

    await q.query(`CREATE TABLE match (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_a uuid NOT NULL,
      user_b uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT match_pair_key UNIQUE (user_a, user_b),
      CONSTRAINT match_pair_order_check CHECK (user_a < user_b)
    )`);
    await q.query('CREATE INDEX match_user_a_recent_idx ON match (user_a, created_at DESC)');
    await q.query('CREATE INDEX match_user_b_recent_idx ON match (user_b, created_at DESC)');

    await q.query(`CREATE TABLE impression (
      id bigserial PRIMARY KEY,
      viewer_id uuid NOT NULL,
      target_id uuid NOT NULL,
      score real NOT NULL,
      model_version varchar(40) NOT NULL,
      served_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX impression_target_served_idx ON impression (target_id, served_at)');
    await q.query('CREATE INDEX impression_served_idx ON impression (served_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS impression');
    await q.query('DROP TABLE IF EXISTS match');
    await q.query('DROP TABLE IF EXISTS swipe');
    await q.query(
      'DROP FUNCTION IF EXISTS great_circle_km(double precision, double precision, double precision, double precision)',
    );
    await q.query('DROP TABLE IF EXISTS candidate');
  }
}

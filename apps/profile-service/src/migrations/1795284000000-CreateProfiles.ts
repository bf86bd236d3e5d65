import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Profiles, and the photos table that the photo issue fills. */
export class CreateProfiles1795284000000 implements MigrationInterface {
  name = 'CreateProfiles1795284000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE profiles (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL,
      name varchar(100) NULL,
      age int NULL,
      gender varchar(30) NULL,
      bio text NULL,
      location varchar(200) NULL,
      height int NULL,
      occupation varchar(100) NULL,
      education varchar(100) NULL,
      looking_for varchar(30) NULL,
      interests text[] NOT NULL DEFAULT '{}',
      is_verified boolean NOT NULL DEFAULT false,
      onboarding_completed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT profiles_user_id_key UNIQUE (user_id),
      CONSTRAINT profiles_age_check CHECK (age IS NULL OR age BETWEEN 18 AND 120),
      CONSTRAINT profiles_height_check CHECK (height IS NULL OR height BETWEEN 100 AND 250)
    )`);
    await q.query(`CREATE TABLE photos (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      url text NOT NULL,
      is_primary boolean NOT NULL DEFAULT false,
      "order" int NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX photos_profile_order_idx ON photos (profile_id, "order")');
    await q.query('CREATE UNIQUE INDEX photos_one_primary_idx ON photos (profile_id) WHERE is_primary');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS photos');
    await q.query('DROP TABLE IF EXISTS profiles');
  }
}

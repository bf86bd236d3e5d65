import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lifestyle fields of the profile (issue 8): optional smoking, drinking, exercise and pets with the
 * stored values of spec 001 §3, which the filter preferences choose among. The values are written
 * out here (not read from the contracts) so that this migration stays what it was when it ran.
 */
export class ProfileLifestyle1795400000000 implements MigrationInterface {
  name = 'ProfileLifestyle1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles
      ADD COLUMN smoking varchar(30) NULL,
      ADD COLUMN drinking varchar(30) NULL,
      ADD COLUMN exercise varchar(30) NULL,
      ADD COLUMN pets varchar(30) NULL,
      ADD CONSTRAINT profiles_smoking_check
        CHECK (smoking IN ('never', 'socially', 'regularly', 'prefer_not_to_say')),
      ADD CONSTRAINT profiles_drinking_check
        CHECK (drinking IN ('never', 'socially', 'regularly', 'prefer_not_to_say')),
      ADD CONSTRAINT profiles_exercise_check
        CHECK (exercise IN ('never', 'sometimes', 'regularly', 'daily')),
      ADD CONSTRAINT profiles_pets_check
        CHECK (pets IN ('none', 'dog', 'cat', 'other', 'multiple'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles
      DROP CONSTRAINT IF EXISTS profiles_pets_check,
      DROP CONSTRAINT IF EXISTS profiles_exercise_check,
      DROP CONSTRAINT IF EXISTS profiles_drinking_check,
      DROP CONSTRAINT IF EXISTS profiles_smoking_check,
      DROP COLUMN IF EXISTS pets,
      DROP COLUMN IF EXISTS exercise,
      DROP COLUMN IF EXISTS drinking,
      DROP COLUMN IF EXISTS smoking`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A cheaper candidate query (issue 27; src/candidates/candidate.repository.ts, tools/bench/README.md).
 *
 * - `candidate_pool_idx` gains keys for the viewer's own filters of spec 001 §3, checked on the
 *   index entry before any row is read: height (0 = not said), the ordinal code (position in the
 *   option list, 0 = not said) of education, smoking, drinking, exercise and pets, and the smallest
 *   and largest code of the member's relationship goals. Before, a viewer with narrow filters read
 *   and rejected tens of thousands of rows per pool at a million members. The gender key becomes
 *   an integer code (0 = not said), so every key of an entry is fixed-width. The expressions must
 *   stay identical to the query's.
 * - `great_circle_km` could not be inlined (LEAST is not strict, the function is): every call ran
 *   as a function of its own, about ten times the cost of the expression. `float8smaller` is the
 *   strict form of the same bound, so the planner now inlines it.
 */
export class SuggestionPoolKeys1796500000000 implements MigrationInterface {
  name = 'SuggestionPoolKeys1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION great_circle_km(lat1 double precision, lng1 double precision,
        lat2 double precision, lng2 double precision) RETURNS double precision
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT 2 * 6371.0088 * asin(float8smaller(1, sqrt(
        sin(radians(lat2 - lat1) / 2) ^ 2
        + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lng2 - lng1) / 2) ^ 2))) $$`);
    // The smallest and largest position in `options` of `vals` (null when none is an option).
    for (const [name, aggregate] of [
      ['min_option_code', 'min'],
      ['max_option_code', 'max'],
    ]) {
      await q.query(`CREATE FUNCTION ${name}(options text[], vals text[]) RETURNS int
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT ${aggregate}(array_position(options, x)) FROM unnest(vals) AS x $$`);
    }
    await q.query('DROP INDEX candidate_pool_idx');
    await q.query(`CREATE INDEX candidate_pool_idx ON candidate (
      (coalesce(lat, 'NaN')), (coalesce(lng, 'NaN')),
      (coalesce(array_position('{male,female,non-binary,other}'::text[], gender_group), 0)), pool_key,
      (coalesce(age, 0)), min_age, max_age, max_distance,
      (cardinality(gender_preference) = 0 OR 'male' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'female' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'non-binary' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'other' = ANY (gender_preference)),
      (coalesce(height, 0)),
      (coalesce(array_position('{high_school,some_college,associate,bachelor,master,doctorate,other}'::text[], education_value), 0)),
      (coalesce(array_position('{never,socially,regularly,prefer_not_to_say}'::text[], smoking), 0)),
      (coalesce(array_position('{never,socially,regularly,prefer_not_to_say}'::text[], drinking), 0)),
      (coalesce(array_position('{never,sometimes,regularly,daily}'::text[], exercise), 0)),
      (coalesce(array_position('{none,dog,cat,other,multiple}'::text[], pets), 0)),
      (coalesce(min_option_code('{casual,long_term,marriage,friendship,not_sure}'::text[], goals), 6)),
      (coalesce(max_option_code('{casual,long_term,marriage,friendship,not_sure}'::text[], goals), 0))
    ) WHERE suggestible`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX candidate_pool_idx');
    await q.query(`CREATE INDEX candidate_pool_idx ON candidate (
      (coalesce(lat, 'NaN')), (coalesce(lng, 'NaN')), (coalesce(gender_group, '')), pool_key,
      (coalesce(age, 0)), min_age, max_age, max_distance,
      (cardinality(gender_preference) = 0 OR 'male' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'female' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'non-binary' = ANY (gender_preference)),
      (cardinality(gender_preference) = 0 OR 'other' = ANY (gender_preference))
    ) WHERE suggestible`);
    await q.query('DROP FUNCTION IF EXISTS min_option_code(text[], text[])');
    await q.query('DROP FUNCTION IF EXISTS max_option_code(text[], text[])');
    await q.query(`CREATE OR REPLACE FUNCTION great_circle_km(lat1 double precision, lng1 double precision,
        lat2 double precision, lng2 double precision) RETURNS double precision
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT 2 * 6371.0088 * asin(least(1, sqrt(
        sin(radians(lat2 - lat1) / 2) ^ 2
        + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lng2 - lng1) / 2) ^ 2))) $$`);
  }
}

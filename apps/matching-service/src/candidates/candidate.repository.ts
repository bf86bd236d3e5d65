import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DEFAULT_PREFERENCES,
  INTERESTED_IN_OPTIONS,
  type PreferencesUpdatedPayload,
  type ProfileUpdatedPayload,
  type UserSuspendedPayload,
  type UserUnsuspendedPayload,
} from '@mate/contracts';
import type { RankContext, ScoringProfile } from '@mate/matching-model';
import { namedQuery, ReadReplica } from '@mate/server-kit';
// The repository itself, not the scoring module's index: the benchmark loads this file alone.
import { rankContextOf, rankContextSql, type RankContextRow } from '../scoring/scoring.repository';
import type { Candidate } from './candidate.entity';
import { preferenceColumns, profileColumns, type CandidateColumns } from './candidate-columns';
import { isDefaultAgeRangeSql, mutualRulesSql } from './candidate-rules';

/** How many candidates the query samples for scoring: enough choice for a page, cheap to rank. */
export const CANDIDATE_POOL_SIZE = 300;

/** Kilometres per degree of latitude (a slight overestimate keeps the band wide enough). */
const KM_PER_DEGREE_LAT = 110;

/**
 * A member of the pool as ranking reads it and the great-circle distance to them (null when
 * either place is unknown). Only the ranking's columns: the card's are read for the few served.
 */
export interface PoolMember extends ScoringProfile {
  distanceKm: number | null;
}

/** What a Discover card shows of a member (suggestion.mapper), read only for the members served. */
export type CardMember = Pick<
  Candidate,
  | 'userId'
  | 'name'
  | 'age'
  | 'bio'
  | 'locationText'
  | 'occupation'
  | 'interests'
  | 'profilePicture'
  | 'photos'
>;

/**
 * The columns of `c` that ranking reads, as ScoringProfile's properties, so rows need no mapping.
 * The model only counts photos, so the pool carries the count, not the photos' JSON.
 */
const RANKING_COLUMNS = `c.user_id AS "userId", c.age, c.gender_group AS "genderGroup", c.goals, c.interests,
  c.height, c.education_value AS "educationValue", c.smoking, c.drinking, c.exercise, c.pets, c.lat, c.lng,
  jsonb_array_length(c.photos) AS "photoCount", c.min_age AS "minAge", c.max_age AS "maxAge",
  c.max_distance AS "maxDistance", c.min_height AS "minHeight", c.max_height AS "maxHeight",
  c.preferred_interests AS "preferredInterests"`;

/** A row of RANKING_COLUMNS. */
type RankingRow = Omit<ScoringProfile, 'photos'> & { photoCount: number };
/** A row of RANKING_COLUMNS and the distance to the member. */
type PoolRow = RankingRow & { distanceKm: number | null };

// The keys of candidate_pool_idx (migration 1796500000000-SuggestionPoolKeys); the query must
// spell them the same way, or the planner checks them on the row instead of on the index entry.
const PLACE_LAT = `coalesce(c.lat, 'NaN')`;
const PLACE_LNG = `coalesce(c.lng, 'NaN')`;
/** Interested-in groups by code (0 = not said): an integer key keeps every key of the entry fixed-width. */
const GENDER_CODES = `'{${INTERESTED_IN_OPTIONS.join(',')}}'::text[]`;
const genderCode = (group: string) => `coalesce(array_position(${GENDER_CODES}, ${group}), 0)`;
const GENDER_KEY = genderCode('c.gender_group');
const AGE_KEY = `coalesce(c.age, 0)`;
/** Height (0 = not said) against the viewer's height bounds (no bound = everyone, as the rule says). */
const HEIGHT_KEY = `coalesce(c.height, 0)`;
const NO_MAX_HEIGHT = 32767;

/**
 * The list filters of spec 001 §3 whose options have a natural order, as ordinal codes on the
 * index entry (the option's position; 0 = not said). A viewer's list is read as the range of its
 * codes, so the index entry turns away most members outside it before their row is read. Lists
 * are usually one run in this order (bachelor–doctorate, never–socially); where one is not, the
 * range is wider than the list and the rule on the row decides, as it always does: the keys only
 * ever turn away members the rules would. Frozen with the index (migration
 * 1796500000000-SuggestionPoolKeys): changing an order or an option means rebuilding it.
 */
const ORDINAL_FILTERS = [
  {
    value: 'education_value',
    list: 'education_preference',
    options: ['high_school', 'some_college', 'associate', 'bachelor', 'master', 'doctorate', 'other'],
  },
  {
    value: 'smoking',
    list: 'smoking_preference',
    options: ['never', 'socially', 'regularly', 'prefer_not_to_say'],
  },
  {
    value: 'drinking',
    list: 'drinking_preference',
    options: ['never', 'socially', 'regularly', 'prefer_not_to_say'],
  },
  { value: 'exercise', list: 'exercise_preference', options: ['never', 'sometimes', 'regularly', 'daily'] },
  { value: 'pets', list: 'pets_preference', options: ['none', 'dog', 'cat', 'other', 'multiple'] },
] as const;
/**
 * Relationship goals are a set per member (any overlap passes): the index holds the smallest and
 * largest code of the member's goals, and an overlap needs smallest <= the list's largest and
 * largest >= the list's smallest. No goals: smallest past every code, largest 0 (fails a list).
 */
const GOAL_OPTIONS = ['casual', 'long_term', 'marriage', 'friendship', 'not_sure'] as const;
const NO_GOAL_CODE = GOAL_OPTIONS.length + 1;

const optionsSql = (options: readonly string[]) => `'{${options.join(',')}}'::text[]`;
/** The member's code for one ordinal filter, as the index spells it. */
const ordinalKey = ({ value, options }: { value: string; options: readonly string[] }) =>
  `coalesce(array_position(${optionsSql(options)}, c.${value}), 0)`;
const GOALS_MIN_KEY = `coalesce(min_option_code(${optionsSql(GOAL_OPTIONS)}, c.goals), ${NO_GOAL_CODE})`;
const GOALS_MAX_KEY = `coalesce(max_option_code(${optionsSql(GOAL_OPTIONS)}, c.goals), 0)`;

/**
 * The viewer's range of codes for one list filter, read once per query in `v` as `<list>_lo` and
 * `<list>_hi`: every code when the list is empty or holds a value outside `options` (the rule on
 * the row then decides alone), else the smallest and largest code in the list.
 */
function codeRangeSql(
  viewer: string,
  list: string,
  options: readonly string[],
  all: [number, number],
): string {
  const known = `cardinality(${viewer}.${list}) > 0 AND ${viewer}.${list} <@ ${optionsSql(options)}`;
  return `CASE WHEN ${known} THEN min_option_code(${optionsSql(options)}, ${viewer}.${list}) ELSE ${all[0]} END AS ${list}_lo,
    CASE WHEN ${known} THEN max_option_code(${optionsSql(options)}, ${viewer}.${list}) ELSE ${all[1]} END AS ${list}_hi`;
}
const VIEWER_CODE_RANGES = [
  ...ORDINAL_FILTERS.map(({ list, options }) => codeRangeSql('cv', list, options, [0, options.length])),
  codeRangeSql('cv', 'relationship_goal_preference', GOAL_OPTIONS, [0, NO_GOAL_CODE]),
].join(',\n    ');

/** Whether the member's gender list takes `group` (empty = everyone), one index key per group. */
const acceptsKey = (group: string) =>
  `(cardinality(c.gender_preference) = 0 OR '${group}' = ANY (c.gender_preference))`;

/**
 * The candidate query (ARCHITECTURE §5): one SQL statement, walking `candidate_pool_idx` only.
 *
 * 1. `places`: the distinct places (city centres) in the latitude band the viewer's maximum
 *    distance reaches, found by skipping through the index one place at a time (a loose index
 *    scan: one index descent per place, whatever its population). Then those within the
 *    viewer's distance. A viewer of unknown place has one place, "no known place" (NaN): members
 *    of unknown place meet only each other (candidate-rules, issue 25).
 * 2. `slots`: each such place with each gender the viewer is interested in ('' = not said,
 *    only for a viewer open to everyone). The pool is shared equally between the slots.
 * 3. For each slot, an index range scan from a random `pool_key` (wrapping around once) that
 *    reads rows in random order, checks ages, distance and the member's gender list on the index
 *    entry, applies every hard rule of `mutualRulesSql` and the "not yet swiped" anti-join on the
 *    swipe key, and stops after its share of the pool. Rows are read only for entries already in
 *    the right place, gender and age, whose own age range, distance and gender list take the
 *    viewer, so the work is bounded by the pool size, not by the population.
 * 4. Each row answers only RANKING_COLUMNS and the distance: parsing whole rows (bios, photos,
 *    timestamps, every filter list) for a pool of 300 cost more than the query itself.
 *
 * Parameters: $1 viewer id, $2 pool size, $3 random start in [0, 1). Exported for the benchmark,
 * which prints its plan.
 */
export const CANDIDATE_POOL_SQL = `
WITH RECURSIVE v AS (
  SELECT cv.*, ${VIEWER_CODE_RANGES}
  FROM candidate cv WHERE cv.user_id = $1
), band AS (
  SELECT CASE WHEN v.lat IS NULL THEN 'NaN'::float8 ELSE v.lat - v.max_distance / ${KM_PER_DEGREE_LAT}.0 END AS lo,
         CASE WHEN v.lat IS NULL THEN 'NaN'::float8 ELSE v.lat + v.max_distance / ${KM_PER_DEGREE_LAT}.0 END AS hi
  FROM v
), places AS (
  (SELECT ${PLACE_LAT} AS lat, ${PLACE_LNG} AS lng FROM candidate c
    WHERE c.suggestible AND ${PLACE_LAT} >= (SELECT lo FROM band) AND ${PLACE_LAT} <= (SELECT hi FROM band)
    ORDER BY 1, 2 LIMIT 1)
  UNION ALL
  SELECT nxt.lat, nxt.lng FROM places p, LATERAL (
    SELECT ${PLACE_LAT} AS lat, ${PLACE_LNG} AS lng FROM candidate c
    WHERE c.suggestible AND (${PLACE_LAT}, ${PLACE_LNG}) > (p.lat, p.lng) AND ${PLACE_LAT} <= (SELECT hi FROM band)
    ORDER BY 1, 2 LIMIT 1) nxt
), near AS (
  SELECT p.lat, p.lng FROM places p, v
    WHERE v.lat IS NOT NULL AND great_circle_km(v.lat, v.lng, p.lat, p.lng) <= v.max_distance
  UNION ALL SELECT 'NaN'::float8, 'NaN'::float8 FROM v WHERE v.lat IS NULL
), genders AS (
  SELECT ${genderCode('g')} AS g FROM v, unnest(CASE WHEN cardinality(v.gender_preference) = 0
    THEN ARRAY[${[...INTERESTED_IN_OPTIONS, ''].map((g) => `'${g}'`).join(', ')}]
    ELSE v.gender_preference END) AS g
), slots AS (
  SELECT near.lat, near.lng, genders.g,
    CASE WHEN v.lat IS NULL THEN 0 ELSE great_circle_km(v.lat, v.lng, near.lat, near.lng) END AS km
  FROM v, near, genders
), share AS (
  SELECT greatest(1, ceil($2::float8 / greatest(1, count(*))))::int AS n FROM slots
)
SELECT c.*, CASE WHEN v.lat IS NULL OR c.lat IS NULL THEN NULL
  ELSE s.km END AS "distanceKm"
FROM v, slots s, share slot, LATERAL (
  (SELECT ${RANKING_COLUMNS} FROM candidate c WHERE ${slotSql('c.pool_key >= $3')} ORDER BY c.pool_key LIMIT slot.n)
  UNION ALL
  (SELECT ${RANKING_COLUMNS} FROM candidate c WHERE ${slotSql('c.pool_key < $3')} ORDER BY c.pool_key LIMIT slot.n)
  LIMIT slot.n
) c`;

/**
 * The rows of one slot from one side of the random start: first what the index entry answers
 * (place, gender, start, the member's age, the member's age range around the viewer's age — an
 * unknown age needs the default range —, the member's maximum distance to the slot's place, and
 * `accepts(viewer's group) >= true` for the member's gender list, trivially true for the other
 * groups), all implied by the rules; then the rules themselves.
 */
function slotSql(poolKeyRange: string): string {
  return `${PLACE_LAT} = s.lat AND ${PLACE_LNG} = s.lng AND ${GENDER_KEY} = s.g AND ${poolKeyRange}
    AND ${AGE_KEY} BETWEEN (CASE WHEN ${isDefaultAgeRangeSql('v')} THEN 0 ELSE v.min_age END) AND v.max_age
    AND c.min_age <= coalesce(v.age, ${DEFAULT_PREFERENCES.minAge}) AND c.max_age >= coalesce(v.age, ${DEFAULT_PREFERENCES.maxAge})
    AND c.max_distance >= s.km
    ${INTERESTED_IN_OPTIONS.map((g) => `AND ${acceptsKey(g)} >= (coalesce(v.gender_group, '') = '${g}')`).join('\n    ')}
    AND ${HEIGHT_KEY} BETWEEN coalesce(v.min_height, 0) AND coalesce(v.max_height, ${NO_MAX_HEIGHT})
    ${ORDINAL_FILTERS.map((f) => `AND ${ordinalKey(f)} BETWEEN v.${f.list}_lo AND v.${f.list}_hi`).join('\n    ')}
    AND ${GOALS_MIN_KEY} <= v.relationship_goal_preference_hi AND ${GOALS_MAX_KEY} >= v.relationship_goal_preference_lo
    AND ${mutualRulesSql('v', 'c')}
    -- A scalar subquery, not NOT EXISTS: as an anti-join the planner probed the swipe key by the
    -- viewer alone and compared every swipe of theirs with every row read (a member with
    -- thousands of swipes would pay thousands per row); this probes (viewer, member) once a row.
    AND (SELECT true FROM swipe sw WHERE sw.swiper_id = v.user_id AND sw.target_id = c.user_id) IS NULL`;
}

/** The ranking's view of one member and the distance to them from the viewer's place. */
const MEMBER_SQL = `
SELECT ${RANKING_COLUMNS}, great_circle_km(v.lat, v.lng, c.lat, c.lng) AS "distanceKm"
FROM candidate c LEFT JOIN candidate v ON v.user_id = $1
WHERE c.user_id = $2`;

/** The ranking's view of the viewer. */
const PROFILE_SQL = `SELECT ${RANKING_COLUMNS} FROM candidate c WHERE c.user_id = $1`;

/** What a card shows of candidate `c`, as CardMember's properties. */
export const CARD_COLUMNS = `c.user_id AS "userId", c.name, c.age, c.bio, c.location_text AS "locationText",
  c.occupation, c.interests, c.profile_picture AS "profilePicture", c.photos`;

/** The card columns of these members, by primary key. */
const CARDS_SQL = `SELECT ${CARD_COLUMNS} FROM candidate c WHERE c.user_id = ANY ($1::uuid[])`;

/**
 * A suggestion's first round trip: the pool of CANDIDATE_POOL_SQL ($1 viewer, $2 size, $3 start),
 * the viewer's own ranking columns, and the ranking context of both (rankContextSql: $4 model
 * version, $5 exposure window in hours). The pool is materialised first, so the context is read
 * for the members drawn and nothing else; the viewer's row is flagged `isViewer`.
 */
const RANKABLE_POOL_SQL = (() => {
  const context = rankContextSql(
    'm."userId"',
    '(SELECT array_agg("userId") FROM pool)::uuid[]',
    '$1',
    '$4',
    '$5',
  );
  return `
WITH pool AS MATERIALIZED (${CANDIDATE_POOL_SQL}
), m AS (
  SELECT false AS "isViewer", pool.* FROM pool
  UNION ALL
  SELECT true, ${RANKING_COLUMNS}, NULL::float8 FROM candidate c WHERE c.user_id = $1
)
SELECT m.*, ${context.columns} FROM m ${context.joins}`;
})();

/** A row of RANKABLE_POOL_SQL. */
type RankablePoolRow = PoolRow & RankContextRow & { isViewer: boolean };

/** The viewer, their pool and what ranking knows about them, from one statement. */
export interface RankablePool {
  viewer: ScoringProfile | null;
  pool: PoolMember[];
  context: Omit<RankContext, 'exposureStrength'>;
}

/**
 * One member's part of a candidate row, written in full: `$1` the member, then the columns' values
 * in the order of `names` (photos as JSON).
 */
function upsertSql(names: readonly string[]): string {
  const values = names.map((n, i) => (n === 'photos' ? `$${i + 2}::jsonb` : `$${i + 2}`));
  return `INSERT INTO candidate (user_id, ${names.join(', ')}) VALUES ($1, ${values.join(', ')})
       ON CONFLICT (user_id) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}, updated_at = now()`;
}

const ERASE_CANDIDATE = 'DELETE FROM candidate WHERE user_id = $1';

/**
 * The candidate table (the profile and preferences projection): written from the two whole-state
 * events and the suspension events, read as a viewer's pool, the cards served and one member.
 *
 * Writes: each event writes its own part of the row in full and leaves the other part alone;
 * whichever arrives first creates the row with the table's defaults for the other part (a member
 * with no preferences has the spec's defaults). The event consumer has already checked that the
 * event is newer than what was applied.
 */
@Injectable()
export class CandidateRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
  ) {}

  /** What ranking reads of a member, or null when matching has not heard of them yet. */
  async profile(userId: string): Promise<ScoringProfile | null> {
    const [row] = await namedQuery<RankingRow>(this.dataSource, 'candidate-profile', PROFILE_SQL, [userId]);
    return row ? withPhotos(row) : null;
  }

  /**
   * Up to `size` members who fit the viewer and whom the viewer fits, not yet swiped, sampled
   * in random order from `start` (0 ≤ start < 1, the caller's `POOL_START`, so tests can fix it).
   * Empty when the viewer has no candidate row.
   */
  async pool(viewerId: string, size: number, start: number): Promise<PoolMember[]> {
    const rows = await namedQuery<PoolRow>(this.dataSource, 'candidate-pool', CANDIDATE_POOL_SQL, [
      viewerId,
      size,
      start,
    ]);
    return rows.map(withPhotos);
  }

  /**
   * The pool of `pool` with the viewer's ranking columns and the ranking context of both under
   * `modelVersion` and the exposure window, in one round trip (a suggestion's first). No viewer
   * (matching has not heard of them) and an empty pool when the viewer has no candidate row.
   * The heaviest read of matching: on the read replica when one is configured and has the viewer's
   * own last swipe (ReadReplica, docs/adr/0033), else on the primary.
   */
  async rankablePool(
    viewerId: string,
    size: number,
    start: number,
    modelVersion: string,
    windowHours: number,
  ): Promise<RankablePool> {
    const rows = await this.reads.read<RankablePoolRow>(viewerId, {
      name: 'rankable-pool',
      text: RANKABLE_POOL_SQL,
      values: [viewerId, size, start, modelVersion, windowHours],
    });
    const viewerRow = rows.find((r) => r.isViewer);
    return {
      viewer: viewerRow ? withPhotos(viewerRow) : null,
      pool: rows.filter((r) => !r.isViewer).map(withPhotos),
      context: rankContextOf(viewerId, rows),
    };
  }

  /**
   * `EXPLAIN (ANALYZE, BUFFERS)` of CANDIDATE_POOL_SQL for a viewer, as PostgreSQL prints it, `runs`
   * times in a row (the first warms the cache): what the `explain-pool` command prints and the
   * suggestions bench reads. An unnamed statement, so each run is planned for its parameters.
   */
  async explainPool(viewerId: string, runs: number, start = 0.5): Promise<string[]> {
    const plans: string[] = [];
    for (let i = 0; i < runs; i++) {
      const rows: { 'QUERY PLAN': string }[] = await this.dataSource.query(
        `EXPLAIN (ANALYZE, BUFFERS) ${CANDIDATE_POOL_SQL}`,
        [viewerId, CANDIDATE_POOL_SIZE, start],
      );
      plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    return plans;
  }

  /** The cards of these members by id (members unknown to matching are left out). */
  async cards(ids: readonly string[]): Promise<Map<string, CardMember>> {
    const rows = await namedQuery<CardMember>(this.dataSource, 'candidate-cards', CARDS_SQL, [ids]);
    return new Map(rows.map((r) => [r.userId, r]));
  }

  /** One member as ranking sees them from the viewer (for a rewound card), whatever the rules say now. */
  async member(viewerId: string, targetId: string): Promise<PoolMember | null> {
    const [row] = await namedQuery<PoolRow>(this.dataSource, 'candidate-member', MEMBER_SQL, [
      viewerId,
      targetId,
    ]);
    return row ? withPhotos(row) : null;
  }

  applyProfile(manager: EntityManager, payload: ProfileUpdatedPayload): Promise<void> {
    return this.upsert(manager, payload.userId, profileColumns(payload));
  }

  applyPreferences(manager: EntityManager, payload: PreferencesUpdatedPayload): Promise<void> {
    return this.upsert(manager, payload.userId, preferenceColumns(payload));
  }

  /**
   * user.suspended / user.unsuspended (auth-service, the whole suspension state): a suspended
   * member is not suggestible (the generated column) and likes and passes on them are refused;
   * their swipes and matches stay, so an unsuspend restores everything.
   */
  applySuspension(
    manager: EntityManager,
    payload: UserSuspendedPayload | UserUnsuspendedPayload,
  ): Promise<void> {
    return this.upsert(manager, payload.userId, { suspended: payload.suspended });
  }

  /**
   * The member's row goes (their erasure, in its transaction). A like, a pass or an impression
   * locks the target's row in its statement, so one in flight commits first or then finds no row.
   */
  async erase(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_CANDIDATE, [userId]);
  }

  private async upsert(manager: EntityManager, userId: string, columns: CandidateColumns): Promise<void> {
    const names = Object.keys(columns);
    await manager.query(upsertSql(names), [userId, ...names.map((n) => columns[n])]);
  }
}

/** The row itself, given the `photos` ScoringProfile counts (the model reads only how many there are). */
function withPhotos<T extends RankingRow>(row: T): T & { photos: unknown[] } {
  return Object.assign(row, { photos: new Array<unknown>(row.photoCount) });
}

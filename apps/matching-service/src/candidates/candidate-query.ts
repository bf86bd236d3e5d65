import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { DEFAULT_PREFERENCES, INTERESTED_IN_OPTIONS } from '@mate/contracts';
import { Candidate } from './candidate.entity';
import { isDefaultAgeRangeSql, mutualRulesSql } from './candidate-rules';

/** How many candidates the query samples for scoring: enough choice for a page, cheap to rank. */
export const CANDIDATE_POOL_SIZE = 300;

/**
 * Members with no known place fit everyone's distance (the rules do not apply to them), so they
 * would sit in every pool; their slot gets this fraction of a placed slot's share, which keeps
 * them discoverable without letting them crowd out the viewer's neighbours.
 */
const UNPLACED_SHARE = 0.25;

/** Kilometres per degree of latitude (a slight overestimate keeps the band wide enough). */
const KM_PER_DEGREE_LAT = 110;

/** A candidate of the pool and the great-circle distance to it (null when either place is unknown). */
export interface PoolMember {
  candidate: Candidate;
  distanceKm: number | null;
}

/** What the like's check finds for one member. */
export type PairCheck = 'unknown' | 'unsuggestible' | 'outside' | 'fits';

// The keys of candidate_pool_idx (see the migration); the query must spell them the same way.
const PLACE_LAT = `coalesce(c.lat, 'NaN')`;
const PLACE_LNG = `coalesce(c.lng, 'NaN')`;
const GENDER_KEY = `coalesce(c.gender_group, '')`;
const AGE_KEY = `coalesce(c.age, 0)`;
/** Whether the member's gender list takes `group` (empty = everyone), one index key per group. */
const acceptsKey = (group: string) =>
  `(cardinality(c.gender_preference) = 0 OR '${group}' = ANY (c.gender_preference))`;

/**
 * The candidate query (ARCHITECTURE §5): one SQL statement, walking `candidate_pool_idx` only.
 *
 * 1. `places`: the distinct places (city centres) in the latitude band the viewer's maximum
 *    distance reaches, found by skipping through the index one place at a time (a loose index
 *    scan: one index descent per place, whatever its population); every place when the viewer's
 *    own place is unknown. Then those within the viewer's distance, plus "no known place" (NaN).
 * 2. `slots`: each such place with each gender the viewer is interested in ('' = not said,
 *    only for a viewer open to everyone). The pool is shared equally between the placed slots
 *    (the unplaced one gets `UNPLACED_SHARE` of a share).
 * 3. For each slot, an index range scan from a random `pool_key` (wrapping around once) that
 *    reads rows in random order, checks ages, distance and the member's gender list on the index
 *    entry, applies every hard rule of `mutualRulesSql` and the "not yet swiped" anti-join on the
 *    swipe key, and stops after its share of the pool. Rows are read only for entries already in
 *    the right place, gender and age, whose own age range, distance and gender list take the
 *    viewer, so the work is bounded by the pool size, not by the population.
 *
 * Parameters: $1 viewer id, $2 pool size, $3 random start in [0, 1). Exported for the benchmark,
 * which prints its plan.
 */
export const CANDIDATE_POOL_SQL = `
WITH RECURSIVE v AS (
  SELECT * FROM candidate WHERE user_id = $1
), band AS (
  SELECT CASE WHEN v.lat IS NULL THEN '-Infinity'::float8 ELSE v.lat - v.max_distance / ${KM_PER_DEGREE_LAT}.0 END AS lo,
         CASE WHEN v.lat IS NULL THEN 'Infinity'::float8 ELSE v.lat + v.max_distance / ${KM_PER_DEGREE_LAT}.0 END AS hi
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
    WHERE v.lat IS NULL OR great_circle_km(v.lat, v.lng, p.lat, p.lng) <= v.max_distance
  UNION ALL SELECT 'NaN'::float8, 'NaN'::float8
), genders AS (
  SELECT g FROM v, unnest(CASE WHEN cardinality(v.gender_preference) = 0
    THEN ARRAY[${[...INTERESTED_IN_OPTIONS, ''].map((g) => `'${g}'`).join(', ')}]
    ELSE v.gender_preference END) AS g
), slots AS (
  SELECT near.lat, near.lng, genders.g, near.lat <> 'NaN' AS placed,
    CASE WHEN v.lat IS NULL OR near.lat = 'NaN' THEN 0 ELSE great_circle_km(v.lat, v.lng, near.lat, near.lng) END AS km
  FROM v, near, genders
), share AS (
  SELECT greatest(1, ceil($2::float8 / greatest(1, count(*) FILTER (WHERE placed)
    + ${UNPLACED_SHARE} * count(*) FILTER (WHERE NOT placed))))::int AS n FROM slots
)
SELECT c.*, CASE WHEN v.lat IS NULL OR c.lat IS NULL THEN NULL
  ELSE s.km END AS distance_km
FROM v, slots s, share, LATERAL (SELECT CASE WHEN s.placed THEN share.n
  ELSE ceil(share.n * ${UNPLACED_SHARE})::int END AS n) slot, LATERAL (
  (SELECT c.* FROM candidate c WHERE ${slotSql('c.pool_key >= $3')} ORDER BY c.pool_key LIMIT slot.n)
  UNION ALL
  (SELECT c.* FROM candidate c WHERE ${slotSql('c.pool_key < $3')} ORDER BY c.pool_key LIMIT slot.n)
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
    AND ${mutualRulesSql('v', 'c')}
    AND NOT EXISTS (SELECT 1 FROM swipe sw WHERE sw.swiper_id = v.user_id AND sw.target_id = c.user_id)`;
}

/** The like's check for one member: the same rules as the pool, for that pair. */
const PAIR_SQL = `
SELECT c.suggestible, coalesce(v.user_id IS NOT NULL AND (${mutualRulesSql('v', 'c')}), false) AS fits
FROM candidate c LEFT JOIN candidate v ON v.user_id = $1
WHERE c.user_id = $2`;

/** A member and the distance to them from the viewer's place. */
const MEMBER_SQL = `
SELECT c.*, great_circle_km(v.lat, v.lng, c.lat, c.lng) AS distance_km
FROM candidate c LEFT JOIN candidate v ON v.user_id = $1
WHERE c.user_id = $2`;

/** The candidate pool of a viewer and the rule check for one pair, over the candidate table. */
@Injectable()
export class CandidateQuery {
  constructor(private readonly dataSource: DataSource) {}

  /** The viewer's row, or null when matching has not heard of this member yet. */
  find(userId: string, manager: EntityManager = this.dataSource.manager): Promise<Candidate | null> {
    return manager.findOneBy(Candidate, { userId });
  }

  /**
   * Up to `size` members who fit the viewer and whom the viewer fits, not yet swiped, sampled
   * in random order from `start` (0 ≤ start < 1, the caller's `POOL_START`, so tests can fix it).
   * Empty when the viewer has no candidate row.
   */
  async pool(viewerId: string, size: number, start: number): Promise<PoolMember[]> {
    // A named statement: planned once per connection instead of on every request.
    const pg = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pg.query<Record<string, unknown>>({
      name: 'candidate-pool',
      text: CANDIDATE_POOL_SQL,
      values: [viewerId, size, start],
    });
    return rows.map((row) => this.toPoolMember(row));
  }

  /** Whether `viewerId` may like `targetId` under the rules (both directions). */
  async checkPair(
    viewerId: string,
    targetId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PairCheck> {
    const [row]: { suggestible: boolean; fits: boolean }[] = await manager.query(PAIR_SQL, [
      viewerId,
      targetId,
    ]);
    if (!row) return 'unknown';
    if (!row.suggestible) return 'unsuggestible';
    return row.fits ? 'fits' : 'outside';
  }

  /** One member as the viewer would see them (for a rewound card), whatever the rules say now. */
  async member(viewerId: string, targetId: string): Promise<PoolMember | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(MEMBER_SQL, [viewerId, targetId]);
    return row ? this.toPoolMember(row) : null;
  }

  /** A raw row as the entity (through the entity's own column mapping) and its distance. */
  private toPoolMember(row: Record<string, unknown>): PoolMember {
    const candidate = new Candidate();
    for (const column of this.dataSource.getMetadata(Candidate).columns) {
      (candidate as unknown as Record<string, unknown>)[column.propertyName] = row[column.databaseName];
    }
    const distance = row['distance_km'];
    return { candidate, distanceKm: distance === null || distance === undefined ? null : Number(distance) };
  }
}

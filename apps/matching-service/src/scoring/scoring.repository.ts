import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { namedQuery } from '@mate/server-kit';
import type {
  FitMetrics,
  MemberStats,
  ModelParams,
  RankContext,
  ScoringProfile,
  SwipeRecord,
} from '@mate/matching-model';

/** Rows written per statement when a refit stores member factors. */
const WRITE_BATCH = 2_000;
/** Ids per statement when the refit reads candidate attributes. */
const READ_BATCH = 5_000;
/** Fitted models kept for inspection (the newest is active). */
const KEEP_MODELS = 20;

/**
 * What ranking reads about one member besides the profile (RANK_CONTEXT_COLUMNS): the factors come
 * as text ('{0.1,-0.2}'), cheaper to split than to parse as arrays.
 */
export interface RankContextRow {
  userId: string;
  taste: string | null;
  appeal: string | null;
  likes_given: number;
  swipes_given: number;
  likes_received: number;
  swipes_received: number;
  liked_viewer: boolean;
  impressions: number;
}

/**
 * The ranking context of each row of a statement, written once for the statements that read it
 * (rankContext below, the suggestion pool of CandidateRepository): `member` is the expression of the
 * member's id, `ids` an expression of all the members' ids (uuid[]), `viewer`, `version` and
 * `windowHours` parameters. Per member: the learned statistics under the model version (none for
 * a newcomer), by primary key; whether they liked the viewer (the viewer's likes received, one
 * index scan); and how many viewers they were shown to in the window, counted for all `ids` in one
 * index scan (`impression` holds one row per
 * viewer and member shown, so a viewer reloading Discover counts once). A count per member
 * instead was estimated from the table's statistics at hundreds of rows each, which put the
 * statement's cost over `jit_above_cost`: 150–270 ms of JIT compilation per call.
 */
export function rankContextSql(
  member: string,
  ids: string,
  viewer: string,
  version: string,
  windowHours: string,
) {
  return {
    columns: `f.taste::text AS taste, f.appeal::text AS appeal, f.likes_given, f.swipes_given, f.likes_received,
      f.swipes_received, l.swiper_id IS NOT NULL AS liked_viewer, coalesce(i.n, 0)::int AS impressions`,
    joins: `LEFT JOIN member_factor f ON f.user_id = ${member} AND f.model_version = ${version}
      LEFT JOIN (SELECT swiper_id FROM swipe WHERE target_id = ${viewer} AND liked) l ON l.swiper_id = ${member}
      LEFT JOIN (SELECT target_id, count(*) AS n FROM impression
                  WHERE target_id = ANY (${ids}) AND served_at > now() - make_interval(hours => ${windowHours})
                  GROUP BY target_id) i ON i.target_id = ${member}`,
  };
}

/** The rows of rankContextSql as the ranking's context (the viewer's own row gives their statistics only). */
export function rankContextOf(
  viewerId: string,
  rows: readonly RankContextRow[],
): Omit<RankContext, 'exposureStrength'> {
  const stats = new Map<string, MemberStats>();
  const likedViewer = new Set<string>();
  const recentImpressions = new Map<string, number>();
  for (const r of rows) {
    if (r.taste !== null) stats.set(r.userId, statsOf(r));
    if (r.userId === viewerId) continue;
    if (r.liked_viewer) likedViewer.add(r.userId);
    if (r.impressions > 0) recentImpressions.set(r.userId, r.impressions);
  }
  return { stats, likedViewer, recentImpressions };
}

/** The columns of `candidate` the model reads, as ScoringProfile's properties. */
const PROFILE_COLUMNS = `user_id AS "userId", age, gender_group AS "genderGroup", goals, interests, height,
  education_value AS "educationValue", smoking, drinking, exercise, pets, lat, lng, photos,
  min_age AS "minAge", max_age AS "maxAge", max_distance AS "maxDistance", min_height AS "minHeight",
  max_height AS "maxHeight", preferred_interests AS "preferredInterests"`;

/** What the model learned of a member (`member_factor`), as their data export shows it. */
export interface MemberFactorRow {
  model_version: string;
  likes_given: number;
  swipes_given: number;
  likes_received: number;
  swipes_received: number;
  taste: number[];
  appeal: number[];
  updated_at: Date;
}

const MEMBER_FACTOR = 'SELECT * FROM member_factor WHERE user_id = $1';

// SHARE ROW EXCLUSIVE: conflicts with a publish's writes and with itself (two erasures queue
// instead of deadlocking on the upgrade); rankings keep reading (ACCESS SHARE).
const LOCK_FACTORS_FOR_ERASURE = 'LOCK TABLE member_factor IN SHARE ROW EXCLUSIVE MODE';
const ERASE_MEMBER_FACTORS = 'DELETE FROM member_factor WHERE user_id = $1';

/** The SQL of scoring: the active model, what it knows per member, and what a refit reads and writes. */
@Injectable()
export class ScoringRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The member's factors, or null before a refit saw them. */
  async factorsOf(userId: string): Promise<MemberFactorRow | null> {
    const [row] = await this.dataSource.query<MemberFactorRow[]>(MEMBER_FACTOR, [userId]);
    return row ?? null;
  }

  /** The newest fitted model, or null before the first refit. */
  async newestModel(): Promise<ModelParams | null> {
    const rows: { params: ModelParams }[] = await this.dataSource.query(
      'SELECT params FROM scoring_model ORDER BY created_at DESC, version DESC LIMIT 1',
    );
    return rows[0]?.params ?? null;
  }

  /**
   * What ranking knows about a viewer's pool besides the profiles (rankContextSql), in one
   * statement over the viewer and `ids`. Suggestions read it with the pool itself
   * (CandidateRepository.rankablePool); this is for a single card (rewind).
   */
  async rankContext(
    viewerId: string,
    ids: readonly string[],
    version: string,
    windowHours: number,
  ): Promise<Omit<RankContext, 'exposureStrength'>> {
    const context = rankContextSql('m.id', '$2::uuid[]', '$1', '$3', '$4');
    const rows = await namedQuery<RankContextRow>(
      this.dataSource,
      'rank-context',
      `SELECT m.id AS "userId", ${context.columns} FROM unnest($2::uuid[]) AS m (id) ${context.joins}`,
      [viewerId, [viewerId, ...ids], version, windowHours],
    );
    return rankContextOf(viewerId, rows);
  }

  /** The most recent swipes, at most `cap`. */
  async recentSwipes(cap: number): Promise<SwipeRecord[]> {
    return this.dataSource.query(
      `SELECT swiper_id AS "swiperId", target_id AS "targetId", liked FROM swipe ORDER BY created_at DESC LIMIT $1`,
      [cap],
    );
  }

  /** The scoring attributes of these members (deleted ones are left out). */
  async profiles(ids: readonly string[]): Promise<Map<string, ScoringProfile>> {
    const found = new Map<string, ScoringProfile>();
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      const rows: ScoringProfile[] = await this.dataSource.query(
        `SELECT ${PROFILE_COLUMNS} FROM candidate WHERE user_id = ANY($1::uuid[]) AND NOT deleted`,
        [ids.slice(i, i + READ_BATCH)],
      );
      for (const r of rows) found.set(r.userId, r);
    }
    return found;
  }

  /**
   * Publishes a fitted model in one transaction: its member rows replace the previous model's,
   * then the model row makes it the newest. A replica that sees the new version therefore finds
   * all of its factors; until then it keeps using the old model with the old factors' absence
   * (newcomer terms), never a mix of two fits.
   */
  async publish(
    params: ModelParams,
    metrics: FitMetrics,
    stats: ReadonlyMap<string, MemberStats>,
  ): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const entries = [...stats.entries()];
      for (let i = 0; i < entries.length; i += WRITE_BATCH) {
        await writeFactors(tx, params.version, entries.slice(i, i + WRITE_BATCH));
      }
      await tx.query('DELETE FROM member_factor WHERE model_version <> $1', [params.version]);
      // A member erased while this fit ran (their candidate row is gone) keeps no factors: the
      // erasure locks this table, so it either ran before this statement or waits for this commit.
      await tx.query(
        'DELETE FROM member_factor f WHERE NOT EXISTS (SELECT 1 FROM candidate c WHERE c.user_id = f.user_id)',
      );
      // Every row changed: without fresh statistics the planner reads member_factor by the version
      // index (all of it) instead of by the ids a ranking asks for.
      await tx.query('ANALYZE member_factor');
      await tx.query(
        `INSERT INTO scoring_model (version, trained_on, params, metrics) VALUES ($1, $2, $3, $4)`,
        [params.version, metrics.trainedOn, JSON.stringify(params), JSON.stringify(metrics)],
      );
      await tx.query(
        `DELETE FROM scoring_model WHERE version NOT IN
           (SELECT version FROM scoring_model ORDER BY created_at DESC, version DESC LIMIT $1)`,
        [KEEP_MODELS],
      );
    });
  }

  /**
   * Deletes what the model learned of the member (their erasure, in its transaction, after their
   * candidate row went). The table lock waits for a publish under way (its rows of the member are
   * then deleted here); a publish that starts meanwhile waits for this commit and then drops
   * factors of members without a candidate.
   */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(LOCK_FACTORS_FOR_ERASURE);
    await manager.query(ERASE_MEMBER_FACTORS, [userId]);
  }
}

async function writeFactors(
  tx: EntityManager,
  version: string,
  entries: [string, MemberStats][],
): Promise<void> {
  const column = <T>(f: (s: MemberStats) => T) => entries.map(([, s]) => f(s));
  await tx.query(
    `INSERT INTO member_factor
       (user_id, model_version, taste, appeal, likes_given, swipes_given, likes_received, swipes_received, updated_at)
     SELECT u, $2, t::real[], a::real[], lg, sg, lr, sr, now()
     FROM unnest($1::uuid[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[])
       AS x(u, t, a, lg, sg, lr, sr)
     ON CONFLICT (user_id) DO UPDATE SET model_version = EXCLUDED.model_version, taste = EXCLUDED.taste,
       appeal = EXCLUDED.appeal, likes_given = EXCLUDED.likes_given, swipes_given = EXCLUDED.swipes_given,
       likes_received = EXCLUDED.likes_received, swipes_received = EXCLUDED.swipes_received, updated_at = now()`,
    [
      entries.map(([id]) => id),
      version,
      column((s) => `{${s.taste.join(',')}}`),
      column((s) => `{${s.appeal.join(',')}}`),
      column((s) => s.likesGiven),
      column((s) => s.swipesGiven),
      column((s) => s.likesReceived),
      column((s) => s.swipesReceived),
    ],
  );
}

function statsOf(r: RankContextRow): MemberStats {
  return {
    taste: numbers(r.taste ?? '{}'),
    appeal: numbers(r.appeal ?? '{}'),
    likesGiven: r.likes_given,
    swipesGiven: r.swipes_given,
    likesReceived: r.likes_received,
    swipesReceived: r.swipes_received,
  };
}

/** A real[] in its text form ('{0.1,-0.2}', never quoted or null inside) as numbers. */
function numbers(text: string): number[] {
  return text.length > 2 ? text.slice(1, -1).split(',').map(Number) : [];
}

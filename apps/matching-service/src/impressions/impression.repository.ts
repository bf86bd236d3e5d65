import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { namedQuery } from '@mate/server-kit';
import { CARD_COLUMNS, type CardMember } from '../candidates/candidate.repository';

/** A member served to a viewer and the reciprocal score they were shown with. */
export interface ServedMember {
  userId: string;
  score: number;
}

/**
 * The suggestion's second round trip: the cards of the members served, each recorded as an
 * impression of the viewer with the score and model version ($1 viewer, $2 ids, $3 scores,
 * $4 version), one row per viewer and member, moved forward on each serving.
 *
 * The cards' candidate rows are locked FOR KEY SHARE in id order (two loads of one viewer at once
 * cannot deadlock): a member's erasure deletes their candidate row first, so a member erased since
 * the pool was read is either erased after this commits (with this impression) or gone before it
 * reads them, and then neither recorded nor answered (docs/adr/0016-member-data.md).
 */
const SERVE_SQL = `
WITH served AS MATERIALIZED (
  SELECT ${CARD_COLUMNS}, s.score
  FROM unnest($2::uuid[], $3::real[]) AS s (target_id, score) JOIN candidate c ON c.user_id = s.target_id
  ORDER BY s.target_id
  FOR KEY SHARE OF c
), recorded AS (
  INSERT INTO impression (viewer_id, target_id, score, model_version)
  SELECT $1, served."userId", served.score, $4 FROM served
  ON CONFLICT (viewer_id, target_id) DO UPDATE
    SET score = EXCLUDED.score, model_version = EXCLUDED.model_version, served_at = now()
)
SELECT "userId", name, age, bio, "locationText", occupation, interests, "profilePicture", photos FROM served`;

const SHOWN_TO = `SELECT target_id, score, model_version, served_at FROM impression
          WHERE viewer_id = $1 ORDER BY served_at, target_id`;

const ERASE_MEMBER_IMPRESSIONS =
  'WITH gone AS (DELETE FROM impression WHERE viewer_id = $1 OR target_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone';

/** Who was shown whom (`impression`), written with the cards served. */
@Injectable()
export class ImpressionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records `served` as shown to the viewer under `modelVersion` and answers their cards by id,
   * in one statement; members no longer known to matching are neither recorded nor answered.
   */
  async serve(
    viewerId: string,
    served: readonly ServedMember[],
    modelVersion: string,
  ): Promise<Map<string, CardMember>> {
    if (served.length === 0) return new Map();
    const rows = await namedQuery<CardMember>(this.dataSource, 'serve-suggestions', SERVE_SQL, [
      viewerId,
      served.map((s) => s.userId),
      served.map((s) => s.score),
      modelVersion,
    ]);
    return new Map(rows.map((r) => [r.userId, r]));
  }

  /** The members Discover showed the viewer, oldest first, with the score and model (their data export). */
  shownTo(viewerId: string): Promise<{ target_id: string; score: number; model_version: string; served_at: Date }[]> {
    return this.dataSource.query(SHOWN_TO, [viewerId]);
  }

  /** Deletes the impressions naming the member either way (their erasure); answers how many went. */
  async eraseMember(manager: EntityManager, userId: string): Promise<number> {
    const [{ n }] = await manager.query<{ n: number }[]>(ERASE_MEMBER_IMPRESSIONS, [userId]);
    return n;
  }
}

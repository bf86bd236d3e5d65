import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SuggestionDto } from '@mate/contracts';
import { CANDIDATE_POOL_SIZE, CandidateQuery, type PoolMember } from '../candidates/candidate-query';
import { ScoringService } from '../scoring';
import { POOL_START, type PoolStart } from './pool-start';
import { toSuggestion } from './suggestion.mapper';

/**
 * Discover's queue: the candidate pool (every hard rule, both ways), ranked by the reciprocal
 * score, the best `limit` answered. Each suggestion served is recorded as an impression with the
 * model version that scored it (one row per viewer and member, moved forward on each serving).
 */
@Injectable()
export class SuggestionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly candidates: CandidateQuery,
    private readonly scoring: ScoringService,
    @Inject(POOL_START) private readonly poolStart: PoolStart,
  ) {}

  /**
   * Suggestions for a member matching knows (a profile.updated or preferences.updated arrived);
   * none for anyone else, since no rule can be checked without their profile.
   */
  async suggestions(viewerId: string, limit: number): Promise<SuggestionDto[]> {
    const viewer = await this.candidates.find(viewerId);
    if (!viewer) return [];
    const pool = await this.candidates.pool(viewerId, CANDIDATE_POOL_SIZE, this.poolStart());
    if (pool.length === 0) return [];
    const { modelVersion, ranked } = await this.scoring.rank(
      viewer,
      pool.map((m) => m.candidate),
    );
    const byId = new Map(pool.map((m) => [m.candidate.userId, m]));
    const served = ranked.slice(0, limit).flatMap((r) => {
      const member = byId.get(r.userId);
      return member ? [{ member, score: r.score }] : [];
    });
    await this.recordImpressions(viewerId, served, modelVersion);
    return served.map(({ member, score }) => toSuggestion(member.candidate, score, member.distanceKm));
  }

  /** The card of a member the viewer rewound to, scored as the pool would score it. */
  async card(viewerId: string, targetId: string): Promise<SuggestionDto | null> {
    const [viewer, member] = await Promise.all([
      this.candidates.find(viewerId),
      this.candidates.member(viewerId, targetId),
    ]);
    if (!member) return null;
    const { modelVersion, ranked } = viewer
      ? await this.scoring.rank(viewer, [member.candidate])
      : { modelVersion: null, ranked: [] };
    const score = ranked[0]?.score ?? 0;
    if (modelVersion) await this.recordImpressions(viewerId, [{ member, score }], modelVersion);
    return toSuggestion(member.candidate, score, member.distanceKm);
  }

  private async recordImpressions(
    viewerId: string,
    served: { member: PoolMember; score: number }[],
    modelVersion: string,
  ): Promise<void> {
    if (served.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO impression (viewer_id, target_id, score, model_version)
       SELECT $1, target_id, score, $4 FROM unnest($2::uuid[], $3::real[]) AS s (target_id, score)
       -- Rows locked in one order, so two loads of one viewer at once cannot deadlock.
       ORDER BY target_id
       ON CONFLICT (viewer_id, target_id) DO UPDATE
         SET score = EXCLUDED.score, model_version = EXCLUDED.model_version, served_at = now()`,
      [viewerId, served.map((s) => s.member.candidate.userId), served.map((s) => s.score), modelVersion],
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '@mate/server-kit';
import {
  rankPool,
  ScoringModel,
  type ModelParams,
  type RankContext,
  type RankedCandidate,
  type ScoringProfile,
} from '@mate/matching-model';
import { ScoringRepository } from './scoring.repository';

/** How often a replica looks for a newer model than the one in memory. */
export const MODEL_RELOAD_INTERVAL_MS = 30_000;
/** Recent exposure, for the ranking's exposure control: suggestions served in this window. */
export const EXPOSURE_WINDOW_HOURS = 24;

/** A ranked pool and the model version that ranked it (recorded with each suggestion served). */
export interface RankResult {
  modelVersion: string;
  ranked: RankedCandidate[];
}

/**
 * Ranks a viewer's candidate pool with the active scoring model (ARCHITECTURE §5). The model is
 * held in memory and replaced when a newer version appears in scoring_model (looked for at most
 * every MODEL_RELOAD_INTERVAL_MS, without holding up a ranking once one model is loaded); before
 * the first refit it is the population prior.
 */
@Injectable()
export class ScoringService {
  private active = ScoringModel.prior();
  private checkedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly repository: ScoringRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The pool ordered best first for the viewer, each with its reciprocal score (0..1). Reads who in
   * the pool already liked the viewer, what the model learned about them, and their recent
   * exposure: one statement over the pool's ids.
   */
  async rank(viewer: ScoringProfile, pool: readonly ScoringProfile[]): Promise<RankResult> {
    const model = await this.currentModel();
    const ids = pool.map((c) => c.userId);
    // The prior has no member rows: its version finds none, so nobody is read as fitted.
    const context = await this.repository.rankContext(
      viewer.userId,
      ids,
      model.version,
      EXPOSURE_WINDOW_HOURS,
    );
    return this.rankWith(model, viewer, pool, context);
  }

  /**
   * The pool ordered as `rank` orders it, with a context already read under `model`'s version
   * (suggestions read it in the pool's own statement: rankContextSql).
   */
  rankWith(
    model: ScoringModel,
    viewer: ScoringProfile,
    pool: readonly ScoringProfile[],
    context: RankContext,
  ): RankResult {
    return { modelVersion: model.version, ranked: rankPool(model, viewer, pool, context) };
  }

  /** The model in use now. */
  get model(): ScoringModel {
    return this.active;
  }

  /** Makes a just-published model active here at once (the refit's own replica). */
  use(params: ModelParams): void {
    this.active = new ScoringModel(params);
    this.checkedAt = Date.now();
  }

  /** Looks for a newer model now; keeps the current one if the database cannot say. */
  refresh(): Promise<void> {
    this.refreshing ??= this.loadNewest().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** The model to rank with now (the stored one is looked for at most every MODEL_RELOAD_INTERVAL_MS). */
  async currentModel(): Promise<ScoringModel> {
    if (Date.now() - this.checkedAt >= MODEL_RELOAD_INTERVAL_MS) {
      const first = this.checkedAt === Number.NEGATIVE_INFINITY;
      const refresh = this.refresh();
      // The first ranking waits for the stored model; later ones rank with the one in memory meanwhile.
      if (first) await refresh;
    }
    return this.active;
  }

  private async loadNewest(): Promise<void> {
    try {
      const newest = await this.repository.newestModel();
      this.checkedAt = Date.now();
      if (newest && newest.version !== this.active.version) {
        this.active = new ScoringModel(newest);
        this.logger.info({ modelVersion: newest.version }, 'scoring model loaded');
      }
    } catch (err) {
      this.checkedAt = Date.now();
      this.logger.warn({ err }, 'could not look for a newer scoring model; keeping the current one');
    }
  }
}

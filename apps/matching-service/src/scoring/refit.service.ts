import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '@mate/server-kit';
import { fitModel, type FitMetrics } from '@mate/matching-model';
import { ScoringRepository } from './scoring.repository';
import { ScoringService } from './scoring.service';

/** The most recent swipes a refit learns from. */
export const REFIT_SWIPE_CAP = 300_000;
/** Below this many swipes a fit would learn noise: the current model (or the prior) stays. */
export const MIN_SWIPES_TO_FIT = 500;

/** What one refit did. */
export type RefitOutcome =
  | { published: true; version: string; swipes: number; metrics: FitMetrics }
  | { published: false; version: string; swipes: number; reason: string };

/**
 * Refits the scoring model on the most recent swipes and the members' current attributes, and
 * publishes it (scoring_model + member_factor, in one transaction). Run by the scheduled job and
 * by `node main.js refit`; the fit itself is CPU work of a few seconds per 100k swipes.
 */
@Injectable()
export class RefitService {
  constructor(
    private readonly repository: ScoringRepository,
    private readonly scoring: ScoringService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async refit(): Promise<RefitOutcome> {
    const started = Date.now();
    const swipes = await this.repository.recentSwipes(REFIT_SWIPE_CAP);
    if (swipes.length < MIN_SWIPES_TO_FIT) {
      await this.scoring.refresh();
      const reason = `${swipes.length} swipe(s), fewer than ${MIN_SWIPES_TO_FIT}`;
      this.logger.info(
        { swipes: swipes.length, modelVersion: this.scoring.model.version },
        'scoring refit skipped: too few swipes',
      );
      return { published: false, version: this.scoring.model.version, swipes: swipes.length, reason };
    }
    const ids = [...new Set(swipes.flatMap((s) => [s.swiperId, s.targetId]))];
    const profiles = await this.repository.profiles(ids);
    const { params, stats, metrics } = fitModel(swipes, profiles, { version: newVersion() });
    await this.repository.publish(params, metrics, stats);
    this.scoring.use(params);
    this.logger.info(
      {
        modelVersion: params.version,
        swipes: swipes.length,
        members: stats.size,
        ...metrics,
        ms: Date.now() - started,
      },
      'scoring model refitted',
    );
    return { published: true, version: params.version, swipes: swipes.length, metrics };
  }
}

/** 'fit-' + the UTC time to the millisecond + 4 random hex digits: sortable by eye, unique across replicas. */
function newVersion(): string {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  return `fit-${stamp}-${randomBytes(2).toString('hex')}`;
}

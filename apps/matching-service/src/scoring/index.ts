import { MemberFactor } from './member-factor.entity';
import { CreateScoring1795510000000 } from './migrations/1795510000000-CreateScoring';
import { ScoringModelRow } from './scoring-model.entity';

export { ScoringModule } from './scoring.module';
export { EXPOSURE_WINDOW_HOURS, ScoringService, type RankResult } from './scoring.service';
export { rankContextOf, rankContextSql, type RankContextRow } from './scoring.repository';
export { RefitService, type RefitOutcome } from './refit.service';

/** The scoring tables' entities, for AppModule's entity list. */
export const SCORING_ENTITIES = [ScoringModelRow, MemberFactor];
/** The scoring tables' migrations, after the service's own (their timestamps order them). */
export const SCORING_MIGRATIONS = [CreateScoring1795510000000];

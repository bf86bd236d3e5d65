import type { MigrationInterface } from 'typeorm';
import { SCORING_MIGRATIONS } from '../scoring';
import { CreateMatching1795500000000 } from './1795500000000-CreateMatching';
import { ImpressionPerViewer1795520000000 } from './1795520000000-ImpressionPerViewer';
import { BlockedPairs1795600000000 } from './1795600000000-BlockedPairs';
import { MatchHistory1796400000000 } from './1796400000000-MatchHistory';
import { SuggestionPoolKeys1796500000000 } from './1796500000000-SuggestionPoolKeys';
import { BlocksInKitProjection1796600000000 } from './1796600000000-BlocksInKitProjection';

/** matching-service's migrations, oldest first (they run after the kit's and its projections'). */
export const MATCHING_MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateMatching1795500000000,
  ...SCORING_MIGRATIONS,
  ImpressionPerViewer1795520000000,
  BlockedPairs1795600000000,
  MatchHistory1796400000000,
  SuggestionPoolKeys1796500000000,
  BlocksInKitProjection1796600000000,
];

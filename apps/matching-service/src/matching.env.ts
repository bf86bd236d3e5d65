import { IsInt, Min } from 'class-validator';
import { DatabaseEnv, EnvNumber } from '@mate/server-kit';

/** Settings of matching-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class MatchingEnv extends DatabaseEnv {
  /** How often the scoring model is refitted on recent swipes (one run per tick across replicas). */
  @EnvNumber()
  @IsInt()
  @Min(100)
  MODEL_REFIT_INTERVAL_MS = 3_600_000;

  /**
   * Multiplies the per-member limits of swipes and suggestion loads (src/matching/member-rate-limits.ts):
   * for benchmarks and tests that drive one member much faster than a person can.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  MEMBER_RATE_LIMIT_MULTIPLIER = 1;
}

import { IsInt, Max, Min } from 'class-validator';
import { BLOCK_ACTIONS_PER_HOUR, REPORTS_PER_HOUR } from '@mate/contracts';
import { DatabaseEnv, EnvNumber, IsServiceUrl } from '@mate/server-kit';

/** Settings of safety-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class SafetyEnv extends DatabaseEnv {
  /** chat-service, for the messages a report keeps; default http://127.0.0.1:3104 (the registry). */
  @IsServiceUrl()
  CHAT_SERVICE_URL?: string;

  /** How long a report waits for chat's message snapshot before it is stored pending (the job fills it). */
  @EnvNumber()
  @IsInt()
  @Min(50)
  @Max(30_000)
  SAFETY_CHAT_TIMEOUT_MS = 2_000;

  /**
   * How often every report whose message snapshot is still pending is tried again (one run per
   * tick across replicas); each report's own job retries for about 8 minutes before this takes over.
   */
  @EnvNumber()
  @IsInt()
  @Min(100)
  SAFETY_EVIDENCE_SWEEP_MS = 5 * 60_000;

  /** Reports one member may make in an hour, across replicas (Redis). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  SAFETY_REPORTS_PER_HOUR = REPORTS_PER_HOUR;

  /** Blocks and unblocks one member may make in an hour, across replicas (Redis). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  SAFETY_BLOCK_ACTIONS_PER_HOUR = BLOCK_ACTIONS_PER_HOUR;
}

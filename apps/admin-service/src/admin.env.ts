import { IsInt, Max, Min } from 'class-validator';
import { ADMIN_COMMAND_WAIT_MS, ADMIN_PART_TIMEOUT_MS } from '@mate/contracts';
import { DatabaseEnv, EnvNumber, IsServiceUrl } from '@mate/server-kit';

/** Settings of admin-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class AdminEnv extends DatabaseEnv {
  /** The owners of what admins see and change; default http://127.0.0.1:<registry port>. */
  @IsServiceUrl()
  AUTH_SERVICE_URL?: string;

  @IsServiceUrl()
  PROFILE_SERVICE_URL?: string;

  @IsServiceUrl()
  MATCHING_SERVICE_URL?: string;

  @IsServiceUrl()
  SAFETY_SERVICE_URL?: string;

  /** Timeout of each internal call that composes an admin view (a part that misses it shows as N/A). */
  @EnvNumber()
  @IsInt()
  @Min(50)
  @Max(30_000)
  ADMIN_PART_TIMEOUT_MS = ADMIN_PART_TIMEOUT_MS;

  /** How long a mutating admin call waits for the owning service to carry out its command (then 202). */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(60_000)
  ADMIN_COMMAND_WAIT_MS = ADMIN_COMMAND_WAIT_MS;
}

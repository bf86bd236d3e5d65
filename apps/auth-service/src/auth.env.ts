import { IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { DatabaseEnv, EnvNumber, IsServiceUrl } from '@mate/server-kit';

/** Settings of auth-service on top of the shared ones. */
export class AuthEnv extends DatabaseEnv {
  /** The member web app; emails link to its public routes. */
  @IsUrl({ require_tld: false, require_protocol: true })
  WEB_URL = 'http://localhost:4200';

  /** Comma-separated emails that get the admin role once the address is verified (at verification, or a later sign-in). */
  @IsOptional()
  @IsString()
  ADMIN_EMAILS = '';

  /** Token lifetime; the session's 7-day idle expiry ends it sooner. */
  @IsString()
  JWT_EXPIRES_IN = '30d';

  /**
   * Multiplies the per-address limits (not the per-account ones): raise it where many members
   * share one address, or for tests and demos that all come from 127.0.0.1.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  IP_RATE_LIMIT_MULTIPLIER = 1;

  /*
   * The services whose parts a data export gathers (`POST /api/gdpr/export`); each defaults to
   * http://127.0.0.1:<registry port>.
   */
  @IsServiceUrl()
  PROFILE_SERVICE_URL?: string;
  @IsServiceUrl()
  MATCHING_SERVICE_URL?: string;
  @IsServiceUrl()
  CHAT_SERVICE_URL?: string;
  @IsServiceUrl()
  CALL_SERVICE_URL?: string;
  @IsServiceUrl()
  SAFETY_SERVICE_URL?: string;
  @IsServiceUrl()
  NOTIFICATION_SERVICE_URL?: string;

  /** How long each service may take to answer its part of a data export; the slowest one sets the wait. */
  @EnvNumber()
  @IsInt()
  @Min(100)
  @Max(60_000)
  GDPR_EXPORT_PART_TIMEOUT_MS = 10_000;

  /** How long one read of the member activity stream waits for notes (issue 13); also bounds shutdown. */
  @EnvNumber()
  @IsInt()
  @Min(10)
  @Max(10_000)
  MEMBER_ACTIVITY_BLOCK_MS = 1_000;

  /** A note another consumer took and has not acknowledged for this long is claimed (it died). */
  @EnvNumber()
  @IsInt()
  @Min(50)
  @Max(3_600_000)
  MEMBER_ACTIVITY_CLAIM_IDLE_MS = 30_000;
}

export function adminEmails(env: AuthEnv): Set<string> {
  return new Set(
    env.ADMIN_EMAILS.split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
}

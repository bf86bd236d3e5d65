import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { BlankAsUnset, DatabaseEnv, EnvNumber, Secret } from '@mate/server-kit';

/** VAPID keys as base64url without padding: an uncompressed P-256 point (65 bytes), a scalar (32 bytes). */
const VAPID_PUBLIC = /^[A-Za-z0-9_-]{87}$/;
const VAPID_PRIVATE = /^[A-Za-z0-9_-]{43}$/;

/** Settings of notification-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class NotificationEnv extends DatabaseEnv {
  /** Where emails are handed over; smtp:// or smtps://, credentials allowed in the URL. */
  @Secret()
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL = 'smtp://127.0.0.1:1025';

  /** The From header of every email. */
  @IsString()
  @MinLength(3)
  MAIL_FROM = 'Mate <no-reply@mate.local>';

  /** Emails one replica sends at the same time. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(50)
  EMAIL_CONCURRENCY = 4;

  /**
   * The VAPID application server key pair (base64url, as `web-push generate-vapid-keys` prints
   * it). Both or neither: without them the push routes answer 503 and nothing is pushed (email
   * keeps working). `npm start` makes a pair on first start; production reads a Secret.
   */
  @BlankAsUnset()
  @ValidateIf(
    (env: NotificationEnv) => env.VAPID_PUBLIC_KEY !== undefined || env.VAPID_PRIVATE_KEY !== undefined,
  )
  @IsString({ message: 'VAPID_PUBLIC_KEY is required when VAPID_PRIVATE_KEY is set' })
  @Matches(VAPID_PUBLIC, {
    message: 'VAPID_PUBLIC_KEY must be a P-256 public key, base64url (87 characters)',
  })
  VAPID_PUBLIC_KEY?: string;

  @Secret()
  @BlankAsUnset()
  @ValidateIf(
    (env: NotificationEnv) => env.VAPID_PUBLIC_KEY !== undefined || env.VAPID_PRIVATE_KEY !== undefined,
  )
  @IsString({ message: 'VAPID_PRIVATE_KEY is required when VAPID_PUBLIC_KEY is set' })
  @Matches(VAPID_PRIVATE, {
    message: 'VAPID_PRIVATE_KEY must be a P-256 private key, base64url (43 characters)',
  })
  VAPID_PRIVATE_KEY?: string;

  /** Who push services may contact about our pushes (RFC 8292 `sub`). */
  @Matches(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, {
    message: 'VAPID_SUBJECT must be a mailto: address or an https URL',
  })
  VAPID_SUBJECT = 'mailto:admin@mate.local';

  /**
   * `on` only in tests: push endpoints on loopback (127.0.0.0/8, ::1, localhost) are accepted, so
   * a test's stand-in push service can receive. Private and other non-public addresses stay refused.
   */
  @IsIn(['on', 'off'])
  PUSH_ALLOW_LOOPBACK_ENDPOINTS: 'on' | 'off' = 'off';

  /** Messages of one conversation within this window become one push ("3 new messages"). */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(300_000)
  PUSH_COLLAPSE_MS = 5_000;

  /** Attempts per push to one device (a 404/410 removes the subscription at once instead). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(20)
  PUSH_ATTEMPTS = 5;

  /** First retry delay; it doubles each attempt. */
  @EnvNumber()
  @IsInt()
  @Min(10)
  @Max(600_000)
  PUSH_BACKOFF_MS = 2_000;

  /** Subscribe calls a member may make per hour (each is a URL the server checks and later calls). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(10_000)
  PUSH_SUBSCRIBES_PER_HOUR = 30;

  /** Pushes one replica sends at the same time. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(100)
  PUSH_CONCURRENCY = 8;

  /** How long a push service may take to answer. */
  @EnvNumber()
  @IsOptional()
  @IsInt()
  @Min(1_000)
  @Max(60_000)
  PUSH_TIMEOUT_MS = 10_000;
}

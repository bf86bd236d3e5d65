import { Transform } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { DatabaseEnv, Secret } from '@mate/server-kit';

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
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(50)
  EMAIL_CONCURRENCY = 4;
}

import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { PHOTO_RISK_THRESHOLD_DEFAULT } from '@mate/contracts';
import { DatabaseEnv, EnvNumber, Secret } from '@mate/server-kit';

const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase()) : value;

/** Settings of profile-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class ProfileEnv extends DatabaseEnv {
  /** Where photo files are kept: `local` (a folder, the default) or `s3` (S3-compatible storage). */
  @IsIn(['local', 's3'])
  PHOTO_STORAGE: 'local' | 's3' = 'local';

  /** Folder of the local storage; relative paths start at the working directory. */
  @IsString()
  @MinLength(1)
  PHOTO_DIR = '.data/uploads';

  /**
   * Largest decoded image accepted (width × height), against decompression bombs and CPU cost:
   * 25 MP takes a 24 MP phone photo (iPhone 15's default, 5712 × 4284) and a 24 MP camera's
   * 6000 × 4000 (ADR 0003).
   */
  @EnvNumber()
  @IsInt()
  @Min(1_000_000)
  @Max(268_402_689)
  PHOTO_MAX_INPUT_PIXELS = 25_000_000;

  /** Uploads decoded and encoded at the same time by this process (each on one libvips thread). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(64)
  PHOTO_PROCESSING_CONCURRENCY = 2;

  /**
   * Uploads that may wait for processing. Admission counts from before the body is read: at most
   * concurrency + queue uploads are read, waiting or processed at once (each holding its file, up
   * to 10 MB, in memory); one more is refused with 503 and Retry-After before its body is read.
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(1000)
  PHOTO_PROCESSING_QUEUE = 8;

  /**
   * Uploads one member may have admitted in this process at once (body being read, waiting or
   * processed); one more is refused with 429, so one member cannot fill the queue for everyone.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(64)
  PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT = 2;

  /**
   * Risk (Porn + Hentai + Sexy, from the offline classifier) above which a freshly scored photo is
   * hidden from other members until an admin approves it (issue 13).
   */
  @EnvNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  PHOTO_RISK_THRESHOLD = PHOTO_RISK_THRESHOLD_DEFAULT;

  /**
   * Fail safe: a new upload is hidden from other members until the classifier has scored it (its
   * owner sees it at once). Off by default: the issue keeps photos visible unless scored above the
   * threshold, and the scan takes well under a second.
   */
  @Transform(toBoolean)
  @IsBoolean()
  PHOTO_HIDDEN_UNTIL_SCORED = false;

  @ValidateIf((env: ProfileEnv) => env.PHOTO_STORAGE === 's3')
  @IsString({ message: 'S3_BUCKET is required when PHOTO_STORAGE=s3' })
  @MinLength(1, { message: 'S3_BUCKET is required when PHOTO_STORAGE=s3' })
  S3_BUCKET?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  /** An S3-compatible endpoint (MinIO, R2, …); AWS when empty. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  S3_ENDPOINT?: string;

  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @Secret()
  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  @Transform(toBoolean)
  @IsBoolean()
  S3_FORCE_PATH_STYLE = false;
}

import type { Provider } from '@nestjs/common';
import { MAX_PHOTOS } from '@mate/contracts';
import { RateLimits, REDIS, type RateLimitRule, type RedisClient } from '@mate/server-kit';
import { ProfileEnv } from '../profile.env';

/**
 * Uploads per member, counted before the body is read (ADR 0003). Onboarding fills the six photo
 * slots at once and a few may be refused (type, size) and sent again, so a burst of
 * MAX_PHOTOS + 4 is allowed in a minute; over an hour, 20 replaces the whole set three times.
 * Every attempt counts, refused ones too: the cost is in receiving and decoding, not in keeping.
 */
export const PHOTO_UPLOAD_RATE_LIMITS = {
  uploadBurst: { points: MAX_PHOTOS + 4, durationSeconds: 60 },
  uploadHourly: { points: 20, durationSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export type PhotoUploadRateLimit = keyof typeof PHOTO_UPLOAD_RATE_LIMITS;
export const PHOTO_UPLOAD_LIMITER = Symbol('PHOTO_UPLOAD_LIMITER');

/** Shared by every replica through Redis, under this service's key prefix. */
export const photoUploadLimiterProvider: Provider = {
  provide: PHOTO_UPLOAD_LIMITER,
  inject: [REDIS, ProfileEnv],
  useFactory: (redis: RedisClient, env: ProfileEnv) =>
    new RateLimits(redis, env.KEY_PREFIX, PHOTO_UPLOAD_RATE_LIMITS),
};

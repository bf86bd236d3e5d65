import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { NotificationMessages } from '@mate/contracts';
import { RateLimits, REDIS } from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';

type PushRateLimit = 'subscribesPerHour';

/**
 * Per-member limit on subscribe calls, shared by every replica through Redis. Every call that
 * passed validation counts, refused endpoints too: a member probing which URLs the server accepts
 * runs out. Past it: 429 with Retry-After.
 */
@Injectable()
export class PushRateLimiter {
  private readonly limits: RateLimits<PushRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, @Inject(NotificationEnv) env: NotificationEnv) {
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:push`, {
      subscribesPerHour: { points: env.PUSH_SUBSCRIBES_PER_HOUR, durationSeconds: 3600 },
    });
  }

  async subscribe(userId: string): Promise<void> {
    await this.limits.consume('subscribesPerHour', userId, NotificationMessages.tooManySubscriptions);
  }

  /** The member's counter (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    await this.limits.reset('subscribesPerHour', userId);
  }
}

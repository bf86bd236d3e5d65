import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { NotificationMessages } from '@mate/contracts';
import {
  RateLimits,
  REDIS,
  type AllowanceCounter,
  type AppException,
  type PerMemberLimits,
  type WindowCount,
} from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';

type PushRateLimit = 'subscribesPerHour';

/**
 * Per-member limit on subscribe calls, shared by every replica through Redis. Every call counts,
 * refused endpoints too: a member probing which URLs the server accepts runs out. Past it: 429
 * with Retry-After. Counted by the kit's guard in the session check's Redis call
 * (`@CountedPerMember(PushRateLimiter, 'subscribe')` on the route), before the body is read.
 */
@Injectable()
export class PushRateLimiter implements PerMemberLimits {
  private readonly limits: RateLimits<PushRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, @Inject(NotificationEnv) env: NotificationEnv) {
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:push`, {
      subscribesPerHour: { points: env.PUSH_SUBSCRIBES_PER_HOUR, durationSeconds: 3600 },
    });
  }

  counters(kind: string, userId: string): AllowanceCounter[] {
    return this.limits.allowanceCounters([this.rule(kind)], userId);
  }

  refusal(kind: string, counts: readonly WindowCount[]): AppException | null {
    return this.limits.refusalOf([this.rule(kind)], counts, NotificationMessages.tooManySubscriptions);
  }

  private rule(kind: string): PushRateLimit {
    if (kind !== 'subscribe') throw new Error(`No push rate limit for ${kind}`);
    return 'subscribesPerHour';
  }

  /** The member's counter (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    await this.limits.reset('subscribesPerHour', userId);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { NotificationMessages } from '@mate/contracts';
import { MemberLimits, REDIS, type RedisClient } from '@mate/server-kit';
import { NotificationEnv } from '../notification.env';

/**
 * Per-member limit on subscribe calls, shared by every replica through Redis. Every call counts,
 * refused endpoints too: a member probing which URLs the server accepts runs out. Past it: 429
 * with Retry-After. Counted by the kit's guard in the session check's Redis call
 * (`@CountedPerMember(PushRateLimiter, 'subscribe')` on the route), before the body is read.
 */
@Injectable()
export class PushRateLimiter extends MemberLimits<'subscribesPerHour', 'subscribe'> {
  constructor(@Inject(REDIS) redis: RedisClient, @Inject(NotificationEnv) env: NotificationEnv) {
    super(
      redis,
      `${env.KEY_PREFIX}:push`,
      { subscribesPerHour: { points: env.PUSH_SUBSCRIBES_PER_HOUR, durationSeconds: 3600 } },
      { subscribe: { rules: ['subscribesPerHour'], message: NotificationMessages.tooManySubscriptions } },
    );
  }
}

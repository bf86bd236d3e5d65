import { Inject, Injectable } from '@nestjs/common';
import { CallMessages } from '@mate/contracts';
import { MemberLimits, REDIS, SERVICE_ENV, type RedisClient } from '@mate/server-kit';
import type { TranscriptionEnv } from './transcription.env';

/**
 * TRANSCRIBE_PER_MINUTE chunks per member, shared by every replica through Redis. Counted by the
 * kit's guard in the session check's Redis call (`@CountedPerMember(TranscriptionRateLimiter,
 * 'transcribe')` on the route): before the body is read and before the call and the backend are
 * asked, so every attempt counts, refused ones too. Past it: 429 with Retry-After.
 */
@Injectable()
export class TranscriptionRateLimiter extends MemberLimits<'perMinute', 'transcribe'> {
  constructor(@Inject(REDIS) redis: RedisClient, @Inject(SERVICE_ENV) env: TranscriptionEnv) {
    super(
      redis,
      `${env.KEY_PREFIX}:call:transcribe`,
      { perMinute: { points: env.TRANSCRIBE_PER_MINUTE, durationSeconds: 60 } },
      { transcribe: { rules: ['perMinute'], message: CallMessages.tooManyTranscriptions } },
    );
  }
}

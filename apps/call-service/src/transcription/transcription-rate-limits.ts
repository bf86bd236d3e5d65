import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { CallMessages } from '@mate/contracts';
import {
  RateLimits,
  REDIS,
  SERVICE_ENV,
  type AllowanceCounter,
  type AppException,
  type PerMemberLimits,
  type WindowCount,
} from '@mate/server-kit';
import type { TranscriptionEnv } from './transcription.env';

/**
 * TRANSCRIBE_PER_MINUTE chunks per member, shared by every replica through Redis. Counted by the
 * kit's guard in the session check's Redis call (`@CountedPerMember(TranscriptionRateLimiter,
 * 'transcribe')` on the route): before the body is read and before the call and the backend are
 * asked, so every attempt counts, refused ones too. Past it: 429 with Retry-After.
 */
@Injectable()
export class TranscriptionRateLimiter implements PerMemberLimits {
  private readonly limits: RateLimits<'perMinute'>;

  constructor(@Inject(REDIS) redis: Redis, @Inject(SERVICE_ENV) env: TranscriptionEnv) {
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:call:transcribe`, {
      perMinute: { points: env.TRANSCRIBE_PER_MINUTE, durationSeconds: 60 },
    });
  }

  counters(kind: string, userId: string): AllowanceCounter[] {
    return this.limits.allowanceCounters([this.rule(kind)], userId);
  }

  refusal(kind: string, counts: readonly WindowCount[]): AppException | null {
    return this.limits.refusalOf([this.rule(kind)], counts, CallMessages.tooManyTranscriptions);
  }

  private rule(kind: string): 'perMinute' {
    if (kind !== 'transcribe') throw new Error(`No transcription rate limit for ${kind}`);
    return 'perMinute';
  }

  /** The member's counter (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    await this.limits.reset('perMinute', userId);
  }
}

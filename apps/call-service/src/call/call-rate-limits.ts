import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { CallMessages } from '@mate/contracts';
import {
  RateLimits,
  REDIS,
  type AllowanceCounter,
  type AppException,
  type PerMemberLimits,
  type WindowCount,
} from '@mate/server-kit';
import { CallEnv } from '../call.env';

export const TOO_MANY_SIGNALS = 'Too many signals. Please slow down.';
export const TOO_MANY_SUBTITLES = 'Too many subtitles. Please slow down.';

type CallRateLimit = 'callsPerMinute' | 'signalsPer10Seconds' | 'subtitlesPer10Seconds';

/** The socket events counted (`@CountedPerMember(CallRateLimiter, kind)` in CallSocketEvents), their rule and refusal. */
const COUNTED = {
  /** call:initiate, not to oneself (refused 400 before it counts). */
  call: { rule: 'callsPerMinute', message: CallMessages.tooManyCalls },
  /** call:signal, before its size is checked: an oversized signal counts. */
  signal: { rule: 'signalsPer10Seconds', message: TOO_MANY_SIGNALS },
  /** subtitle, before its normalized length is checked. */
  subtitle: { rule: 'subtitlesPer10Seconds', message: TOO_MANY_SUBTITLES },
} satisfies Record<string, { rule: CallRateLimit; message: string }>;

type CountedEvent = keyof typeof COUNTED;

/**
 * Per-member limits on calls, signals and subtitles, shared by every replica through Redis.
 * Every event whose payload is valid counts, refused ones too. Past it: 429 with Retry-After,
 * before the pair is looked up. Counted by the kit's socket-event dispatch (`@CountedPerMember`).
 */
@Injectable()
export class CallRateLimiter implements PerMemberLimits {
  private readonly limits: RateLimits<CallRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, env: CallEnv) {
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:call`, {
      callsPerMinute: { points: env.CALL_CALLS_PER_MINUTE, durationSeconds: 60 },
      signalsPer10Seconds: { points: env.CALL_SIGNALS_PER_10_SECONDS, durationSeconds: 10 },
      subtitlesPer10Seconds: { points: env.CALL_SUBTITLES_PER_10_SECONDS, durationSeconds: 10 },
    });
  }

  counters(kind: string, userId: string): AllowanceCounter[] {
    return this.limits.allowanceCounters([this.counted(kind).rule], userId);
  }

  refusal(kind: string, counts: readonly WindowCount[]): AppException | null {
    const { rule, message } = this.counted(kind);
    return this.limits.refusalOf([rule], counts, message);
  }

  private counted(kind: string) {
    if (!(kind in COUNTED)) throw new Error(`No call rate limit for ${kind}`);
    return COUNTED[kind as CountedEvent];
  }

  /** The member's counters (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    for (const rule of ['callsPerMinute', 'signalsPer10Seconds', 'subtitlesPer10Seconds'] as const) {
      await this.limits.reset(rule, userId);
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CallMessages } from '@mate/contracts';
import { MemberLimits, REDIS, type CountedKind, type RedisClient } from '@mate/server-kit';
import { CallEnv } from '../call.env';

export const TOO_MANY_SIGNALS = 'Too many signals. Please slow down.';
export const TOO_MANY_SUBTITLES = 'Too many subtitles. Please slow down.';

type CallRateLimit = 'callsPerMinute' | 'signalsPer10Seconds' | 'subtitlesPer10Seconds';

/** The socket events counted (`@CountedPerMember(CallRateLimiter, kind)` in CallSocketEvents), their rule and refusal. */
const COUNTED = {
  /** call:initiate, not to oneself (refused 400 before it counts). */
  call: { rules: ['callsPerMinute'], message: CallMessages.tooManyCalls },
  /** call:signal, before its size is checked: an oversized signal counts. */
  signal: { rules: ['signalsPer10Seconds'], message: TOO_MANY_SIGNALS },
  /** subtitle, before its normalized length is checked. */
  subtitle: { rules: ['subtitlesPer10Seconds'], message: TOO_MANY_SUBTITLES },
} satisfies Record<string, CountedKind<CallRateLimit>>;

/**
 * Per-member limits on calls, signals and subtitles, shared by every replica through Redis.
 * Every event whose payload is valid counts, refused ones too. Past it: 429 with Retry-After,
 * before the pair is looked up. Counted by the kit's socket-event dispatch (`@CountedPerMember`).
 */
@Injectable()
export class CallRateLimiter extends MemberLimits<CallRateLimit, keyof typeof COUNTED> {
  constructor(@Inject(REDIS) redis: RedisClient, env: CallEnv) {
    super(
      redis,
      `${env.KEY_PREFIX}:call`,
      {
        callsPerMinute: { points: env.CALL_CALLS_PER_MINUTE, durationSeconds: 60 },
        signalsPer10Seconds: { points: env.CALL_SIGNALS_PER_10_SECONDS, durationSeconds: 10 },
        subtitlesPer10Seconds: { points: env.CALL_SUBTITLES_PER_10_SECONDS, durationSeconds: 10 },
      },
      COUNTED,
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { SAFETY_RATE_WINDOW_MS, SafetyMessages } from '@mate/contracts';
import { MemberLimits, REDIS, type CountedKind, type RedisClient } from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';

type SafetyRateLimit = 'reportsPerHour' | 'blockActionsPerHour';

/** The routes counted (`@CountedPerMember(SafetyRateLimiter, kind)` in SafetyController), their rule and refusal. */
const COUNTED = {
  /** A report. */
  report: { rules: ['reportsPerHour'], message: SafetyMessages.tooManyReports },
  /** A block or an unblock. */
  blockAction: { rules: ['blockActionsPerHour'], message: SafetyMessages.tooManyBlocks },
} satisfies Record<string, CountedKind<SafetyRateLimit>>;

/**
 * Per-member limits on reports and on blocks plus unblocks, shared by every replica through Redis.
 * Every attempt counts, refused ones too (a member probing who exists or flooding the moderators'
 * queue runs out). Past it: 429 with Retry-After. Counted by the kit's guard in the session
 * check's Redis call (`@CountedPerMember` on the routes), before the request is read.
 */
@Injectable()
export class SafetyRateLimiter extends MemberLimits<SafetyRateLimit, keyof typeof COUNTED> {
  constructor(@Inject(REDIS) redis: RedisClient, env: SafetyEnv) {
    const durationSeconds = SAFETY_RATE_WINDOW_MS / 1000;
    super(
      redis,
      `${env.KEY_PREFIX}:safety`,
      {
        reportsPerHour: { points: env.SAFETY_REPORTS_PER_HOUR, durationSeconds },
        blockActionsPerHour: { points: env.SAFETY_BLOCK_ACTIONS_PER_HOUR, durationSeconds },
      },
      COUNTED,
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { SAFETY_RATE_WINDOW_MS, SafetyMessages } from '@mate/contracts';
import {
  RateLimits,
  REDIS,
  type AllowanceCounter,
  type AppException,
  type PerMemberLimits,
  type WindowCount,
} from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';

type SafetyRateLimit = 'reportsPerHour' | 'blockActionsPerHour';

/** The routes counted (`@CountedPerMember(SafetyRateLimiter, kind)` in SafetyController), their rule and refusal. */
const COUNTED = {
  /** A report. */
  report: { rule: 'reportsPerHour', message: SafetyMessages.tooManyReports },
  /** A block or an unblock. */
  blockAction: { rule: 'blockActionsPerHour', message: SafetyMessages.tooManyBlocks },
} satisfies Record<string, { rule: SafetyRateLimit; message: string }>;

type CountedRequest = keyof typeof COUNTED;

/**
 * Per-member limits on reports and on blocks plus unblocks, shared by every replica through Redis.
 * Every attempt counts, refused ones too (a member probing who exists or flooding the moderators'
 * queue runs out). Past it: 429 with Retry-After. Counted by the kit's guard in the session
 * check's Redis call (`@CountedPerMember` on the routes), before the request is read.
 */
@Injectable()
export class SafetyRateLimiter implements PerMemberLimits {
  private readonly limits: RateLimits<SafetyRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, env: SafetyEnv) {
    const durationSeconds = SAFETY_RATE_WINDOW_MS / 1000;
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:safety`, {
      reportsPerHour: { points: env.SAFETY_REPORTS_PER_HOUR, durationSeconds },
      blockActionsPerHour: { points: env.SAFETY_BLOCK_ACTIONS_PER_HOUR, durationSeconds },
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
    if (!(kind in COUNTED)) throw new Error(`No safety rate limit for ${kind}`);
    return COUNTED[kind as CountedRequest];
  }

  /** The member's counters (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    await this.limits.reset('reportsPerHour', userId);
    await this.limits.reset('blockActionsPerHour', userId);
  }
}

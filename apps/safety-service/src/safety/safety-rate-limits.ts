import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { SAFETY_RATE_WINDOW_MS, SafetyMessages } from '@mate/contracts';
import { RateLimits, REDIS } from '@mate/server-kit';
import { SafetyEnv } from '../safety.env';

type SafetyRateLimit = 'reportsPerHour' | 'blockActionsPerHour';

/**
 * Per-member limits on reports and on blocks plus unblocks, shared by every replica through Redis.
 * Every attempt that passed validation counts, refused ones too (a member probing who exists or
 * flooding the moderators' queue runs out). Past it: 429 with Retry-After.
 */
@Injectable()
export class SafetyRateLimiter {
  private readonly limits: RateLimits<SafetyRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, env: SafetyEnv) {
    const durationSeconds = SAFETY_RATE_WINDOW_MS / 1000;
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:safety`, {
      reportsPerHour: { points: env.SAFETY_REPORTS_PER_HOUR, durationSeconds },
      blockActionsPerHour: { points: env.SAFETY_BLOCK_ACTIONS_PER_HOUR, durationSeconds },
    });
  }

  async report(userId: string): Promise<void> {
    await this.limits.consume('reportsPerHour', userId, SafetyMessages.tooManyReports);
  }

  /** The member's counters (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    await this.limits.reset('reportsPerHour', userId);
    await this.limits.reset('blockActionsPerHour', userId);
  }

  /** A block or an unblock. */
  async blockAction(userId: string): Promise<void> {
    await this.limits.consume('blockActionsPerHour', userId, SafetyMessages.tooManyBlocks);
  }
}

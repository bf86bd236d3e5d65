import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { ChatMessages } from '@mate/contracts';
import { RateLimits, REDIS } from '@mate/server-kit';
import { ChatEnv } from '../chat.env';

type ChatRateLimit = 'messagesPer10Seconds' | 'typingPer10Seconds' | 'syncsPer10Seconds';

/** 429 to a typing flood (the app sends typing quietly and never shows it). */
export const TOO_MANY_TYPING_EVENTS = 'Too many typing events. Please slow down.';
/** 429 to a sync_messages flood (the app retries it later). */
export const TOO_MANY_SYNCS = 'Too many sync requests. Please slow down.';

/**
 * Per-member limits on sends, typing events and syncs, shared by every replica through Redis (the
 * gateway's per-socket limit does not stop one account with many sockets: 20 sockets of 100
 * events per 10 s each). Every attempt that passed validation counts, refused ones too. Past it:
 * 429 with Retry-After.
 */
@Injectable()
export class ChatRateLimiter {
  private readonly limits: RateLimits<ChatRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, env: ChatEnv) {
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:chat`, {
      messagesPer10Seconds: { points: env.CHAT_MESSAGES_PER_10_SECONDS, durationSeconds: 10 },
      typingPer10Seconds: { points: env.CHAT_TYPING_PER_10_SECONDS, durationSeconds: 10 },
      syncsPer10Seconds: { points: env.CHAT_SYNCS_PER_10_SECONDS, durationSeconds: 10 },
    });
  }

  /**
   * One send each (a member sending twice counts twice), a batch's counts in one Redis command.
   * Settled in order: a 429 for a member past the limit, a failure of Redis.
   */
  messages(userIds: string[]): Promise<PromiseSettledResult<void>[]> {
    return this.limits.consumeMany('messagesPer10Seconds', userIds, ChatMessages.tooManyMessages);
  }

  /** typing and stop_typing: counted before the pair is looked up, so a flood costs one Redis call each. */
  async typing(userId: string): Promise<void> {
    await this.limits.consume('typingPer10Seconds', userId, TOO_MANY_TYPING_EVENTS);
  }

  /** The member's counters (their account was deleted: no key keeps their id). */
  async forget(userId: string): Promise<void> {
    for (const rule of ['messagesPer10Seconds', 'typingPer10Seconds', 'syncsPer10Seconds'] as const) {
      await this.limits.reset(rule, userId);
    }
  }

  /** sync_messages that name something: counted before the database is asked. */
  async sync(userId: string): Promise<void> {
    await this.limits.consume('syncsPer10Seconds', userId, TOO_MANY_SYNCS);
  }
}

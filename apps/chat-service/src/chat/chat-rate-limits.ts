import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { ChatMessages } from '@mate/contracts';
import { RateLimits, REDIS } from '@mate/server-kit';
import { ChatEnv } from '../chat.env';

type ChatRateLimit = 'messagesPer10Seconds';

/**
 * Per-member limit on sends, shared by every replica through Redis (the gateway's per-socket
 * limit does not stop one account with many sockets). Every send attempt that passed validation
 * counts, refused ones too. Past it: 429 `tooManyMessages` with Retry-After.
 */
@Injectable()
export class ChatRateLimiter {
  private readonly limits: RateLimits<ChatRateLimit>;

  constructor(@Inject(REDIS) redis: Redis, env: ChatEnv) {
    this.limits = new RateLimits(redis, `${env.KEY_PREFIX}:chat`, {
      messagesPer10Seconds: { points: env.CHAT_MESSAGES_PER_10_SECONDS, durationSeconds: 10 },
    });
  }

  async message(userId: string): Promise<void> {
    await this.limits.consume('messagesPer10Seconds', userId, ChatMessages.tooManyMessages);
  }
}

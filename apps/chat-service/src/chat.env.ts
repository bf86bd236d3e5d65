import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { DatabaseEnv } from '@mate/server-kit';

/** Settings of chat-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class ChatEnv extends DatabaseEnv {
  /**
   * Messages one member may send in 10 seconds, across devices and replicas (src/chat/chat-rate-limits.ts).
   * Generous for a person (six a second); the chaos test and the bench raise it.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  CHAT_MESSAGES_PER_10_SECONDS = 60;

  /** How long the typing relay trusts an open pair it looked up (typing is ephemeral; a few seconds). */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  CHAT_TYPING_PAIR_CACHE_MS = 3_000;
}

import { IsInt, Max, Min } from 'class-validator';
import { DatabaseEnv, EnvNumber } from '@mate/server-kit';

/** Settings of chat-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class ChatEnv extends DatabaseEnv {
  /**
   * Messages one member may send in 10 seconds, across devices and replicas (src/chat/chat-rate-limits.ts).
   * Generous for a person (six a second); the chaos test and the bench raise it.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CHAT_MESSAGES_PER_10_SECONDS = 60;

  /**
   * typing / stop_typing events one member may send in 10 seconds, across devices and replicas.
   * A client sends one typing per stretch and one stop_typing a second after the last key, so a
   * person stays far below; past it the events are refused (429) and not relayed, so a flood never
   * reaches the other member nor the database (src/chat/chat-rate-limits.ts).
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CHAT_TYPING_PER_10_SECONDS = 30;

  /**
   * sync_messages one member may ask in 10 seconds, across devices and replicas. A client asks on
   * each (re)connect and for each gap it notices, 500 messages an answer; past it 429, which
   * clients retry later. It keeps one account's sockets (up to 20 of 100 events per 10 s at the
   * gateway) from turning resumes into a steady load on the database.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CHAT_SYNCS_PER_10_SECONDS = 60;

  /**
   * How long the typing relay trusts an open pair it looked up. A block or unmatch applied by
   * another replica stops typing within this time (issue 10: within a second of the block, event
   * lag included), so it stays well under a second; the replica that applied it stops at once.
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(1_000)
  CHAT_TYPING_PAIR_CACHE_MS = 500;
}

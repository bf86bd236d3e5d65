import { Inject, Injectable } from '@nestjs/common';
import { ChatMessages } from '@mate/contracts';
import { MemberLimits, REDIS, type AllowanceCounter, type CountedKind, type RedisClient } from '@mate/server-kit';
import { ChatEnv } from '../chat.env';
import type { SyncMessagesDto } from './dto/chat-requests.dto';

type ChatRateLimit = 'messagesPer10Seconds' | 'typingPer10Seconds' | 'syncsPer10Seconds';

/** 429 to a typing flood (the app sends typing quietly and never shows it). */
export const TOO_MANY_TYPING_EVENTS = 'Too many typing events. Please slow down.';
/** 429 to a sync_messages flood (the app retries it later). */
export const TOO_MANY_SYNCS = 'Too many sync requests. Please slow down.';

/** The socket events counted (`@CountedPerMember(ChatRateLimiter, kind)` in ChatSocketEvents), their rule and refusal. */
const COUNTED = {
  /** send_message. */
  send: { rules: ['messagesPer10Seconds'], message: ChatMessages.tooManyMessages },
  /** typing and stop_typing: counted before the pair is looked up, so a flood costs no pair read. */
  typing: { rules: ['typingPer10Seconds'], message: TOO_MANY_TYPING_EVENTS },
  /** sync_messages that name something, before the database is asked. */
  sync: { rules: ['syncsPer10Seconds'], message: TOO_MANY_SYNCS },
} satisfies Record<string, CountedKind<ChatRateLimit>>;

/**
 * Per-member limits on sends, typing events and syncs, shared by every replica through Redis (the
 * gateway's per-socket limit does not stop one account with many sockets: 20 sockets of 100
 * events per 10 s each). Every event whose payload is valid counts, refused ones too. Past it:
 * 429 with Retry-After. Counted by the kit's socket-event dispatch (`@CountedPerMember`), a
 * delivery's events in one Redis call, before any handler runs.
 */
@Injectable()
export class ChatRateLimiter extends MemberLimits<ChatRateLimit, keyof typeof COUNTED> {
  constructor(@Inject(REDIS) redis: RedisClient, env: ChatEnv) {
    super(
      redis,
      `${env.KEY_PREFIX}:chat`,
      {
        messagesPer10Seconds: { points: env.CHAT_MESSAGES_PER_10_SECONDS, durationSeconds: 10 },
        typingPer10Seconds: { points: env.CHAT_TYPING_PER_10_SECONDS, durationSeconds: 10 },
        syncsPer10Seconds: { points: env.CHAT_SYNCS_PER_10_SECONDS, durationSeconds: 10 },
      },
      COUNTED,
    );
  }

  override counters(kind: string, userId: string, payload?: unknown): AllowanceCounter[] {
    // A sync that names nothing is answered with nothing: it costs nothing and is not counted.
    if (kind === 'sync' && !namesSomething(payload as SyncMessagesDto)) return [];
    return super.counters(kind, userId);
  }
}

/** A sync_messages that asks for something: a conversation's position or a time. */
export function namesSomething(payload: SyncMessagesDto): boolean {
  return (payload.conversations?.length ?? 0) > 0 || !!payload.since;
}

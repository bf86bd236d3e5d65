import { Injectable } from '@nestjs/common';
import {
  CHAT_SYNC_MAX_MESSAGES,
  ChatErrorCode,
  ChatMessages,
  orderedPairOf,
  type ConversationPageDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import { badRequest, notFound } from '@mate/server-kit';
import { ConversationFromGate, refusedWith } from './conversation-from-gate';
import { toChatMessage } from './chat-mapper';
import { namesSomething } from './chat-rate-limits';
import { ConversationRepository, type ConversationRow } from './conversation.repository';
import { MessageRepository } from './message.repository';
import type { ConversationQueryDto, SyncMessagesDto } from './dto/chat-requests.dto';

/** The highest seq a cursor can name (a PostgreSQL int): the open upper end of a page. */
const MAX_SEQ = 2_147_483_647;

/**
 * Reading messages (docs/adr/0013-chat-delivery.md): pages of a conversation and sync_messages.
 * Sending is MessageSender's (message-sender.ts).
 */
@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly conversations: ConversationRepository,
    private readonly fromGate: ConversationFromGate,
  ) {}

  /** A page of the caller's open conversation with `otherId`, ascending seq. */
  async page(callerId: string, otherId: string, query: ConversationQueryDto): Promise<ConversationPageDto> {
    if (query.before !== undefined && query.after !== undefined) {
      throw badRequest('Give before or after, not both');
    }
    const conversation = await this.conversation(callerId, otherId);
    const limit = query.limit;
    const ascending = query.after !== undefined;
    // Members never see what precedes a re-match (history_from_seq; 0 for most conversations).
    const floor = conversation.history_from_seq;
    const lower = Math.max(query.after ?? 0, floor);
    const upper = query.before ?? MAX_SEQ;
    const rows = await this.messages.page(conversation.id, lower, upper, limit + 1, ascending);
    let hasMore = rows.length > limit;
    if (hasMore) {
      if (ascending) rows.pop();
      else rows.shift();
    }
    const messages = rows.map((r) => toChatMessage(r, r.recipient_read_seq, r.sender_name));
    const first = messages[0];
    if (!ascending) hasMore = first !== undefined && first.seq > floor + 1;
    return {
      userId: otherId,
      messages,
      hasMore,
      nextBefore: first && first.seq > floor + 1 ? first.seq : null,
      lastSeq: conversation.last_seq,
    };
  }

  /**
   * sync_messages: what the caller missed, by position and/or by time, in their open conversations.
   * One that names something has counted against the member's sync limit before (the kit's).
   */
  async sync(callerId: string, payload: SyncMessagesDto): Promise<SyncMessagesResult> {
    const positions = payload.conversations ?? [];
    const since = payload.since ? new Date(payload.since) : null;
    if (since && Number.isNaN(since.getTime())) throw badRequest('since must be an ISO 8601 time');
    if (!namesSomething(payload)) return { messages: [], hasMore: false };
    const rows = await this.messages.sync(
      callerId,
      positions.map((p) => ({ userId: p.userId.toLowerCase(), afterSeq: p.afterSeq })),
      since,
      CHAT_SYNC_MAX_MESSAGES + 1,
    );
    const hasMore = rows.length > CHAT_SYNC_MAX_MESSAGES;
    return {
      messages: rows
        .slice(0, CHAT_SYNC_MAX_MESSAGES)
        .map((r) => toChatMessage(r, r.recipient_read_seq, r.sender_name)),
      hasMore,
    };
  }

  /** The caller's open conversation with `otherId`, or 404 (told the same whether it exists or not). */
  async conversation(callerId: string, otherId: string): Promise<ConversationRow> {
    if (callerId === otherId) throw notFound(ChatMessages.conversationNotFound, ChatErrorCode.ConversationNotFound);
    const [a, b] = orderedPairOf(callerId, otherId);
    const find = async () => {
      const row = await this.conversations.findOpen(a, b, callerId);
      if (!row) throw notFound(ChatMessages.conversationNotFound, ChatErrorCode.ConversationNotFound);
      return row;
    };
    // 'Send Message' right after the match opens the conversation before match.created arrives (ADR 0029).
    return this.fromGate.orFromGate(
      callerId,
      otherId,
      refusedWith(ChatErrorCode.ConversationNotFound),
      find,
    );
  }
}

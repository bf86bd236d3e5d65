import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CHAT_MESSAGE_MAX_LENGTH,
  CHAT_SYNC_MAX_MESSAGES,
  ChatMessages,
  messageLength,
  normalizeMessageContent,
  type ChatMessageDto,
  type ConversationPageDto,
  type SyncMessagesResult,
} from '@mate/contracts';
import {
  badRequest,
  conflict,
  driverPool,
  forbidden,
  namedQuery,
  notFound,
  OutboxService,
  PairGate,
  pairGateRefuses,
} from '@mate/server-kit';
import { ChatNotifier } from './chat-notifier';
import { ConversationFromGate, refusedWith } from './conversation-from-gate';
import { orderedPair } from './chat-db';
import { toChatMessage, type StoredMessage } from './chat-mapper';
import { ChatRateLimiter } from './chat-rate-limits';
import {
  CONVERSATION_SQL,
  EXISTING_SQL,
  PAGE_SQL,
  SEND_SQL,
  SYNC_SQL,
  type ConversationRow,
  type MessageRow,
} from './chat.sql';
import type { ConversationQueryDto, SendMessageDto, SyncMessagesDto } from './dto/chat-requests.dto';

/** The highest seq a cursor can name (a PostgreSQL int): the open upper end of a page. */
const MAX_SEQ = 2_147_483_647;

/** What the send statement answers (SEND_SQL). */
interface SendRow {
  conversation: {
    id: string;
    closed: boolean;
    history_from_seq: number;
    recipient_read_seq: number;
    /** The pair version the conversation's match was made under (null: a match from before versions). */
    match_pair_version: number | null;
  } | null;
  sender_name: string | null;
  inserted: StoredMessage | null;
  existing: StoredMessage | null;
  /** The sender or the recipient is suspended (issue 13). */
  suspended: boolean;
}

/**
 * Sending and reading messages (docs/adr/0013-chat-delivery.md): a message is stored with the
 * next seq of its conversation, under the conversation's row lock, before it is acknowledged or
 * pushed; a retry with the same client id answers the stored message.
 */
@Injectable()
export class MessagesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly notifier: ChatNotifier,
    private readonly limits: ChatRateLimiter,
    private readonly gate: PairGate,
    private readonly fromGate: ConversationFromGate,
  ) {}

  async send(senderId: string, payload: SendMessageDto): Promise<ChatMessageDto> {
    const recipientId = payload.recipientId.toLowerCase();
    const content = normalizeMessageContent(payload.content);
    if (content.length === 0) throw badRequest(ChatMessages.emptyMessage);
    if (messageLength(content) > CHAT_MESSAGE_MAX_LENGTH) throw badRequest(ChatMessages.tooLong);
    if (recipientId === senderId) throw badRequest(ChatMessages.messageSelf);
    await this.limits.message(senderId);
    const clientId = payload.clientId ?? randomUUID();

    // A match whose like answered a moment ago may not have reached this projection: the pair gate
    // names it (ADR 0029), and the send is tried once more with its conversation recorded.
    const message = await this.fromGate.orFromGate(senderId, recipientId, refusedWith(403, ChatMessages.notMatched), () =>
      this.store(senderId, recipientId, clientId, content),
    );
    // After the commit only: a pushed message is always a stored one. A retry pushes again (the
    // first push may be what was lost); clients keep each id once.
    await this.notifier.message(message);
    return message;
  }

  /**
   * The send statement (SEND_SQL: the conversation's row lock, the insert, the conversation's
   * move and the outbox row in one statement), then what it answered: the new message, or the
   * stored one of a retry.
   *
   * A new message commits only if the pair gate (ADR 0024) does not close the conversation's match:
   * the gate is read after the statement, while it holds the row lock, and before COMMIT, so a
   * block or unmatch that has answered before that read refuses the message even when this
   * replica's projection has not applied its event yet. A failing read rolls back (503).
   */
  private async store(senderId: string, recipientId: string, clientId: string, content: string): Promise<ChatMessageDto> {
    const [a, b] = orderedPair(senderId, recipientId);
    const messageId = randomUUID();
    // conversationId, seq, first and sentAt are filled in by the statement, from the locked row.
    const event = this.outbox.factRow('message.sent', {
      messageId,
      conversationId: '',
      senderId,
      recipientId,
      seq: 0,
      length: messageLength(content),
      first: false,
      sentAt: '',
    });
    const params = [messageId, a, b, senderId, recipientId, clientId, content, event.id, event.body];
    const client = await driverPool(this.dataSource).connect();
    let row: SendRow;
    let gateCloses = false;
    let released = false;
    try {
      await client.query('BEGIN');
      [row] = (await client.query<SendRow>({ name: 'chat_send', text: SEND_SQL, values: params })).rows;
      gateCloses = row.inserted !== null && pairGateRefuses(await this.gate.read(a, b), row.conversation?.match_pair_version ?? null);
      await client.query(gateCloses ? 'ROLLBACK' : 'COMMIT');
    } catch (e) {
      // A failed statement or gate read leaves the transaction open: end it, or drop the connection.
      await client.query('ROLLBACK').catch(() => {
        client.release(true);
        released = true;
      });
      throw e;
    } finally {
      if (!released) client.release();
    }
    // Refused as a closed conversation is: the sender learns no more than "not matched".
    if (gateCloses) throw forbidden(ChatMessages.notMatched);
    const { conversation } = row;
    // A closed conversation (unmatch, block: safety's pair events) refuses like a missing one, nothing stored.
    // So does a pair of whom either is suspended (issue 13): the sender learns no more than that.
    if (!conversation || conversation.closed || row.suspended) throw forbidden(ChatMessages.notMatched);
    if (row.inserted) return toChatMessage(row.inserted, conversation.recipient_read_seq, row.sender_name);
    // A retry: the sender's earlier message with this client id (read again when a concurrent
    // send of it committed after this statement's snapshot). One from the history a re-match hid
    // (at or before history_from_seq) is not answered again, nor pushed: it is hidden from both.
    const existing =
      row.existing ?? (await namedQuery<StoredMessage>(this.dataSource, 'chat_existing', EXISTING_SQL, [senderId, clientId]))[0];
    if (!existing || existing.conversation_id !== conversation.id || existing.seq <= conversation.history_from_seq) {
      throw conflict(ChatMessages.clientIdReused);
    }
    return toChatMessage(existing, conversation.recipient_read_seq, row.sender_name);
  }

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
    const rows = await namedQuery<MessageRow>(this.dataSource, 'chat_page', PAGE_SQL, [
      conversation.id,
      lower,
      upper,
      limit + 1,
      ascending,
    ]);
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

  /** sync_messages: what the caller missed, by position and/or by time, in their open conversations. */
  async sync(callerId: string, payload: SyncMessagesDto): Promise<SyncMessagesResult> {
    const positions = payload.conversations ?? [];
    const since = payload.since ? new Date(payload.since) : null;
    if (since && Number.isNaN(since.getTime())) throw badRequest('since must be an ISO 8601 time');
    if (positions.length === 0 && !since) return { messages: [], hasMore: false };
    await this.limits.sync(callerId);
    const rows = await namedQuery<MessageRow>(this.dataSource, 'chat_sync', SYNC_SQL, [
      callerId,
      positions.map((p) => p.userId.toLowerCase()),
      positions.map((p) => p.afterSeq),
      since,
      CHAT_SYNC_MAX_MESSAGES + 1,
    ]);
    const hasMore = rows.length > CHAT_SYNC_MAX_MESSAGES;
    return {
      messages: rows.slice(0, CHAT_SYNC_MAX_MESSAGES).map((r) => toChatMessage(r, r.recipient_read_seq, r.sender_name)),
      hasMore,
    };
  }

  /** The caller's open conversation with `otherId`, or 404 (told the same whether it exists or not). */
  async conversation(callerId: string, otherId: string): Promise<ConversationRow> {
    if (callerId === otherId) throw notFound(ChatMessages.conversationNotFound);
    const [a, b] = orderedPair(callerId, otherId);
    const find = async () => {
      const [row] = await namedQuery<ConversationRow>(this.dataSource, 'chat_conversation', CONVERSATION_SQL, [a, b, callerId]);
      if (!row) throw notFound(ChatMessages.conversationNotFound);
      return row;
    };
    // 'Send Message' right after the match opens the conversation before match.created arrives (ADR 0029).
    return this.fromGate.orFromGate(callerId, otherId, refusedWith(404, ChatMessages.conversationNotFound), find);
  }
}

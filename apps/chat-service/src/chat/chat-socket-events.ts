import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  type AuthPrincipal,
  type ChatMessageDto,
  type MarkReadResultDto,
  type SocketOk,
  type SyncMessagesResult,
} from '@mate/contracts';
import { asUnavailable, CountedPerMember, LOGGER, SocketEvent, SocketEventBatch, type SocketEventEntry } from '@mate/server-kit';

import { ChatRateLimiter } from './chat-rate-limits';
import { ConversationsService } from './conversations.service';
import { MarkAsReadDto, RecipientDto, SendMessageDto, SyncMessagesDto } from './dto/chat-requests.dto';
import { MessageSender } from './message-sender';
import { MessagesService } from './messages.service';

/**
 * The chat events members send on their socket; the gateway delivers them here with the member's
 * token (the session is checked by the global guard) and relays what a handler answers as the
 * acknowledgement, or `{ error }` for what it throws. The member's limits of an event are declared
 * here (`@CountedPerMember(ChatRateLimiter, kind)`) and counted by the kit once the payload is
 * valid, before the handler runs (a delivery's events in one Redis call).
 *
 * Every event here is safe to repeat (a send by its clientId, the others by nature), so a failure
 * that is not a refusal (the database or Redis unreachable for a moment) is answered 503
 * SERVICE_UNAVAILABLE, which clients retry, rather than a 500 they would show as failed.
 */
@Injectable()
export class ChatSocketEvents {
  constructor(
    private readonly messages: MessagesService,
    private readonly sender: MessageSender,
    private readonly conversations: ConversationsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Every send_message of a delivery at once (MessageSender: one statement, one transaction), each answered on its own. */
  @SocketEventBatch('send_message', SendMessageDto)
  @CountedPerMember(ChatRateLimiter, 'send')
  async send(entries: SocketEventEntry<SendMessageDto>[]): Promise<PromiseSettledResult<ChatMessageDto>[]> {
    const answers = await this.sender.sendMany(entries);
    return answers.map((a, i) =>
      a.status === 'fulfilled'
        ? a
        : { status: 'rejected', reason: asUnavailable(this.logger, { event: 'send_message', requestId: entries[i].requestId }, a.reason) },
    );
  }

  @SocketEvent('typing')
  @CountedPerMember(ChatRateLimiter, 'typing')
  async typing(payload: RecipientDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.retryable('typing', () => this.conversations.typing(sender.userId, payload.recipientId.toLowerCase(), true));
    return { ok: true };
  }

  @SocketEvent('stop_typing')
  @CountedPerMember(ChatRateLimiter, 'typing')
  async stopTyping(payload: RecipientDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.retryable('stop_typing', () =>
      this.conversations.typing(sender.userId, payload.recipientId.toLowerCase(), false),
    );
    return { ok: true };
  }

  @SocketEvent('mark_as_read')
  markAsRead(payload: MarkAsReadDto, sender: AuthPrincipal): Promise<MarkReadResultDto> {
    return this.retryable('mark_as_read', () => this.conversations.markRead(sender.userId, payload.otherUserId.toLowerCase()));
  }

  @SocketEvent('sync_messages')
  @CountedPerMember(ChatRateLimiter, 'sync')
  sync(payload: SyncMessagesDto, sender: AuthPrincipal): Promise<SyncMessagesResult> {
    return this.retryable('sync_messages', () => this.messages.sync(sender.userId, payload));
  }

  private async retryable<T>(event: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw asUnavailable(this.logger, { event }, e);
    }
  }
}

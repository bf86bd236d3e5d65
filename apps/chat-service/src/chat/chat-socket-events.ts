import { Injectable } from '@nestjs/common';
import type {
  AuthPrincipal,
  ChatMessageDto,
  MarkReadResultDto,
  SocketOk,
  SyncMessagesResult,
} from '@mate/contracts';
import { SocketEvent } from '@mate/server-kit';
import { ConversationsService } from './conversations.service';
import { MarkAsReadDto, RecipientDto, SendMessageDto, SyncMessagesDto } from './dto/chat-requests.dto';
import { MessagesService } from './messages.service';

/**
 * The chat events members send on their socket; the gateway delivers them here with the member's
 * token (the session is checked by the global guard) and relays what a handler answers as the
 * acknowledgement, or `{ error }` for what it throws.
 */
@Injectable()
export class ChatSocketEvents {
  constructor(
    private readonly messages: MessagesService,
    private readonly conversations: ConversationsService,
  ) {}

  @SocketEvent('send_message')
  send(payload: SendMessageDto, sender: AuthPrincipal): Promise<ChatMessageDto> {
    return this.messages.send(sender.userId, payload);
  }

  @SocketEvent('typing')
  async typing(payload: RecipientDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.conversations.typing(sender.userId, payload.recipientId.toLowerCase(), true);
    return { ok: true };
  }

  @SocketEvent('stop_typing')
  async stopTyping(payload: RecipientDto, sender: AuthPrincipal): Promise<SocketOk> {
    await this.conversations.typing(sender.userId, payload.recipientId.toLowerCase(), false);
    return { ok: true };
  }

  @SocketEvent('mark_as_read')
  markAsRead(payload: MarkAsReadDto, sender: AuthPrincipal): Promise<MarkReadResultDto> {
    return this.conversations.markRead(sender.userId, payload.otherUserId.toLowerCase());
  }

  @SocketEvent('sync_messages')
  sync(payload: SyncMessagesDto, sender: AuthPrincipal): Promise<SyncMessagesResult> {
    return this.messages.sync(sender.userId, payload);
  }
}

import { randomUUID } from 'node:crypto';
import { DynamicModule, Injectable, Module } from '@nestjs/common';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { SERVICES, type AuthPrincipal, type ChatMessagePayload } from '@mate/contracts';
import { BaseServiceEnv, CoreModule, RealtimeEmitter, RealtimeModule, SocketEvent } from '@mate/server-kit';

/**
 * A stand-in for chat-service, written the way chat-service is:
 * `@SocketEvent` handlers with class-validator payloads, pushing through `RealtimeEmitter`. It
 * proves the route gateway → service → acknowledgement and service → member push.
 */
class SendMessageDto {
  @IsUUID('4', { message: 'recipientId must be a user id' }) recipientId!: string;
  @IsString() @MinLength(1) @MaxLength(5000) content!: string;
  @IsOptional() @IsString() clientId?: string;
}

class RecipientDto {
  @IsUUID('4', { message: 'recipientId must be a user id' }) recipientId!: string;
}

class MarkAsReadDto {
  @IsUUID('4', { message: 'otherUserId must be a user id' }) otherUserId!: string;
}

class SyncDto {
  @IsOptional() @IsString() since?: string;
}

/** Lets a test hold `mark_as_read` answers back, to see the gateway's timeout. */
export class Gate {
  private opened: () => void = () => undefined;
  private promise: Promise<void> = Promise.resolve();
  /** Closes the gate: answers wait until open(). */
  reset(): void {
    this.promise = new Promise<void>((resolve) => (this.opened = resolve));
  }
  wait(): Promise<void> {
    return this.promise;
  }
  open(): void {
    this.opened();
  }
}
export const slowReads = new Gate();

@Injectable()
export class TestChatSocketEvents {
  constructor(private readonly realtime: RealtimeEmitter) {}

  @SocketEvent('send_message')
  async send(payload: SendMessageDto, sender: AuthPrincipal): Promise<ChatMessagePayload> {
    const message: ChatMessagePayload = {
      id: randomUUID(),
      senderId: sender.userId,
      recipientId: payload.recipientId,
      content: payload.content,
      createdAt: new Date().toISOString(),
      seq: 1,
      isRead: false,
      senderName: null,
      clientId: payload.clientId ?? null,
    };
    await this.realtime.toUser(payload.recipientId).emit('new_message', message);
    return message;
  }

  @SocketEvent('typing')
  async typing(payload: RecipientDto, sender: AuthPrincipal): Promise<void> {
    await this.realtime.toUser(payload.recipientId).emit('user_typing', { userId: sender.userId });
  }

  @SocketEvent('stop_typing')
  async stopTyping(payload: RecipientDto, sender: AuthPrincipal): Promise<void> {
    await this.realtime.toUser(payload.recipientId).emit('user_stopped_typing', { userId: sender.userId });
  }

  @SocketEvent('mark_as_read')
  async markAsRead(_payload: MarkAsReadDto): Promise<{ readUpTo: number }> {
    await slowReads.wait();
    return { readUpTo: 0 };
  }

  @SocketEvent('sync_messages')
  sync(_payload: SyncDto): { messages: []; hasMore: false } {
    return { messages: [], hasMore: false };
  }
}

@Module({})
export class TestChatServiceModule {
  static forRoot(env: Record<string, string>): DynamicModule {
    return {
      module: TestChatServiceModule,
      imports: [CoreModule.forRoot({ service: SERVICES.chat, envClass: BaseServiceEnv, env }), RealtimeModule.forRoot()],
      providers: [TestChatSocketEvents],
    };
  }
}

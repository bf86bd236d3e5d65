import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ChatMessageDto, MessagesReadPayload } from '@mate/contracts';
import { LOGGER, RealtimeEmitter } from '@mate/server-kit';

/**
 * The realtime pushes of chat, made after the commit. A push is best-effort: a failure (Redis
 * down) is logged without the content and never fails the member's request, because the message
 * is stored and numbered, and a client that missed it resumes by sequence (sync_messages).
 */
@Injectable()
export class ChatNotifier {
  constructor(
    private readonly realtime: RealtimeEmitter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * For each message, `new_message` to every device of the recipient and `message_sent` to every
   * device of the sender. All issued in one tick: the push connection's auto-pipelining writes them
   * to Redis together.
   */
  async messages(messages: ChatMessageDto[]): Promise<void> {
    if (messages.length === 0) return;
    const pushes = messages.flatMap((m) => [
      this.realtime.toUser(m.recipientId).emit('new_message', m),
      this.realtime.toUser(m.senderId).emit('message_sent', m),
    ]);
    const results = await Promise.allSettled(pushes);
    results.forEach((result, i) => {
      const m = messages[i >> 1];
      if (result.status === 'rejected') this.logger.warn({ error: describe(result.reason), messageId: m.id, seq: m.seq }, 'chat message push failed');
    });
  }

  /** `messages_read` to the other member: `payload.userId` read up to `readUpTo`. */
  async read(to: string, payload: MessagesReadPayload): Promise<void> {
    await this.settle([this.realtime.toUser(to).emit('messages_read', payload)], { to }, 'messages_read push failed');
  }

  /** `user_typing` / `user_stopped_typing` to the other member. */
  async typing(to: string, userId: string, typing: boolean): Promise<void> {
    await this.settle(
      [this.realtime.toUser(to).emit(typing ? 'user_typing' : 'user_stopped_typing', { userId })],
      { to },
      'typing push failed',
    );
  }

  private async settle(pushes: Promise<unknown>[], context: Record<string, unknown>, what: string) {
    for (const result of await Promise.allSettled(pushes)) {
      // Only the error's name and message: ioredis errors carry the command's arguments (the content).
      if (result.status === 'rejected') this.logger.warn({ error: describe(result.reason), ...context }, what);
    }
  }
}

function describe(e: unknown): { name: string; message: string } {
  return e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
}

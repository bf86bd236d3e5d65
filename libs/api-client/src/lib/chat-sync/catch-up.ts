import { CHAT_SYNC_MAX_CONVERSATIONS, type ChatMessageDto } from '@mate/contracts';
import { backoffDelay, type SyncContext } from './context';
import type { MessageLog } from './message-log';

export interface CatchUpEvents {
  /** A message that came back through a fill or a resume. */
  received(message: ChatMessageDto): void;
  /** The conversations the engine tracks. */
  conversations(): Iterable<MessageLog>;
  /** After a resume's sync: what is unsent goes out at once, and the unread count is asked again. */
  resumed(): Promise<void>;
}

/**
 * Catching up on what the engine missed: a conversation's gap (a `seq` past the next expected
 * one) asks for what follows its last contiguous `seq`, over the socket or REST; every (re)connect
 * resumes every tracked conversation the same way, batched, then lets the unsent go out. A fill or
 * resume the service could not answer while the socket stayed up is tried again with backoff.
 */
export class CatchUp {
  /** A gap fill is running / another one is wanted after it, per conversation. */
  private readonly filling = new Set<string>();
  private readonly refill = new Set<string>();
  private resuming: Promise<void> | null = null;
  private resumeAgain = false;
  private resumeAttempt = 0;
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ctx: SyncContext,
    private readonly events: CatchUpEvents,
  ) {}

  /** Asks for what follows the conversation's last contiguous seq, until nothing more. */
  async fill(log: MessageLog): Promise<void> {
    if (log.contiguous === null) return;
    if (this.filling.has(log.userId)) {
      this.refill.add(log.userId);
      return;
    }
    this.filling.add(log.userId);
    try {
      do {
        this.refill.delete(log.userId);
        await this.fetchAfter(log);
      } while (this.refill.has(log.userId));
    } catch {
      // Offline: the next connect resumes from the same point. The service away while the socket
      // stays up: no connect will come, so the resume (every tracked conversation) is tried again.
      if (this.ctx.isConnected()) this.scheduleResume();
    } finally {
      this.filling.delete(log.userId);
    }
  }

  /** On every (re)connect: what followed in every tracked conversation, then the unsent messages. */
  resume(): Promise<void> {
    if (this.resuming) {
      this.resumeAgain = true;
      return this.resuming;
    }
    this.resuming = (async () => {
      do {
        this.resumeAgain = false;
        const synced = await this.syncTracked().then(
          () => true,
          () => false,
        );
        if (!this.ctx.isConnected() || !this.ctx.isStarted()) break;
        if (!synced) this.scheduleResume();
        else this.resumeAttempt = 0;
        await this.events.resumed();
        this.ctx.counters.resumes++;
      } while (this.resumeAgain && this.ctx.isConnected() && this.ctx.isStarted());
    })().finally(() => {
      this.resuming = null;
    });
    return this.resuming;
  }

  stopTimers(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
  }

  private async fetchAfter(log: MessageLog): Promise<void> {
    for (;;) {
      const after = log.contiguous as number;
      let messages: ChatMessageDto[];
      let hasMore: boolean;
      if (this.ctx.isConnected()) {
        const result = await this.ctx.socket.request('sync_messages', {
          conversations: [{ userId: log.userId, afterSeq: after }],
        });
        messages = result.messages;
        hasMore = result.hasMore;
      } else {
        const page = await this.ctx.api.getConversation(log.userId, { after });
        messages = page.messages;
        hasMore = page.hasMore;
      }
      for (const m of messages) this.events.received(m);
      log.advance();
      if (!hasMore || (log.contiguous as number) <= after) return;
    }
  }

  /** A resume the service could not answer (it was away while the socket stayed up) is tried again. */
  private scheduleResume(): void {
    if (this.resumeTimer || !this.ctx.isStarted()) return;
    const delay = backoffDelay(this.resumeAttempt++, this.ctx.random);
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = null;
      void this.resume();
    }, delay);
  }

  private async syncTracked(): Promise<void> {
    const tracked = [...this.events.conversations()].filter((log) => log.contiguous !== null);
    for (let i = 0; i < tracked.length; i += CHAT_SYNC_MAX_CONVERSATIONS) {
      const batch = tracked.slice(i, i + CHAT_SYNC_MAX_CONVERSATIONS);
      while (this.ctx.isConnected()) {
        const before = batch.map((log) => log.contiguous as number);
        const result = await this.ctx.socket.request('sync_messages', {
          conversations: batch.map((log) => ({ userId: log.userId, afterSeq: log.contiguous as number })),
        });
        for (const m of result.messages) this.events.received(m);
        for (const log of batch) log.advance();
        // Ask again from the new positions, unless the answer moved none (a server repeating itself).
        if (!result.hasMore || batch.every((log, j) => (log.contiguous as number) <= before[j])) break;
      }
    }
  }
}

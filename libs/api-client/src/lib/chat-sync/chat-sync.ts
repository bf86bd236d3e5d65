import {
  CHAT_MESSAGE_MAX_LENGTH,
  ChatMessages,
  messageLength,
  normalizeMessageContent,
  type ChatMessageDto,
  type ConversationPageDto,
  type MessagesReadPayload,
} from '@mate/contracts';
import type { ChatApi } from '../chat';
import type { SocketClient } from '../socket';
import { CatchUp } from './catch-up';
import type { SyncContext } from './context';
import { MessageLog, NO_ENTRIES } from './message-log';
import { memoryStore, PendingSends } from './pending-sends';
import { ReadState } from './read-state';
import { Typing } from './typing';
import type { ChatEntry, ChatSyncOptions, ChatSyncStats, PendingMessage } from './types';

/**
 * ChatSync: the client side of chat delivery (issue 9 "Resume", spec 000 §4 Chat), one engine for
 * the web app, the chaos test, the bench and the e2e journeys. Framework-free; a React screen reads
 * it with `useSyncExternalStore(sync.subscribe, () => sync.entries(userId))`.
 *
 * What it guarantees, with a server that stores before it acknowledges and keys retries by
 * `clientId` (contracts/chat.ts):
 * - nothing typed is lost: a message stays 'pending' (and in `pendingStore`) until the server's
 *   acknowledgement or the stored message itself comes back; it is re-sent with the same
 *   `clientId` after a reconnect or a backoff, one at a time per conversation, in creation order
 *   (`PendingSends`);
 * - nothing is shown twice: messages are kept by `id`, a pending entry disappears when a stored
 *   message with its `clientId` arrives by any path (ack, `message_sent`, resume) (`MessageLog`);
 * - nothing is shown out of order: entries are ordered by `seq`; a `seq` past the next expected
 *   one, and every (re)connect, asks for what follows the last contiguous `seq` (a message that
 *   arrived past a hole is shown at once, and the hole's messages take their places above it when
 *   the fill answers; a fill the service could not answer is tried again with backoff) (`CatchUp`);
 * - the pending store is shared safely: a save keeps what another engine of the same member (a
 *   second tab, an engine stopped a moment ago) saved and this one does not know as stored, and a
 *   load ignores malformed entries and those of another sender.
 *
 * This class routes the socket's events and each arriving message to those parts, to the read
 * state (`ReadState`) and to typing (`Typing`), and tells subscribers once per change.
 */
export class ChatSync {
  private readonly socket: SocketClient;
  private readonly api: ChatApi;
  private readonly selfId: string;
  private readonly newClientId: () => string;
  private readonly now: () => number;

  private readonly conversations = new Map<string, MessageLog>();
  private readonly sends: PendingSends;
  private readonly catchUp: CatchUp;
  private readonly reads: ReadState;
  private readonly typingState: Typing;
  private readonly listeners = new Set<() => void>();
  private readonly detach: (() => void)[] = [];
  private started = false;
  private notifyQueued = false;
  private readonly counters: ChatSyncStats = {
    sendAttempts: 0,
    acked: 0,
    retries: 0,
    deliveredLive: 0,
    deliveredByResume: 0,
    duplicatesDropped: 0,
    resumes: 0,
    gapsFilled: 0,
  };

  constructor(options: ChatSyncOptions) {
    this.socket = options.socket;
    this.api = options.api;
    this.selfId = options.selfId;
    this.newClientId = options.newClientId ?? defaultClientId;
    this.now = options.now ?? Date.now;
    const ctx: SyncContext = {
      socket: this.socket,
      api: this.api,
      selfId: this.selfId,
      counters: this.counters,
      random: options.random ?? Math.random,
      isStarted: () => this.started,
      isConnected: () => this.connected,
      changed: () => this.changed(),
    };
    this.sends = new PendingSends(ctx, options.pendingStore ?? memoryStore(), {
      acknowledged: (message) => this.receive(message, 'ack'),
      unsentChanged: (recipientId) => this.conversation(recipientId).invalidate(),
    });
    this.catchUp = new CatchUp(ctx, {
      received: (message) => this.receive(message, 'resume'),
      conversations: () => this.conversations.values(),
      resumed: async () => {
        for (const userId of this.conversations.keys()) this.sends.flushNow(userId);
        await this.reads.refreshUnread();
      },
    });
    this.reads = new ReadState(ctx);
    this.typingState = new Typing(ctx);
  }

  // ---------------------------------------------------------------- lifecycle

  start(): void {
    if (this.started) return;
    this.started = true;
    this.sends.restore();
    for (const p of this.sends.list) this.conversation(p.recipientId).invalidate();

    const s = this.socket.socket;
    const on = <A extends unknown[]>(event: string, handler: (...args: A) => void) => {
      (s as unknown as { on(e: string, h: (...args: A) => void): void }).on(event, handler);
      this.detach.push(() =>
        (s as unknown as { off(e: string, h: (...args: A) => void): void }).off(event, handler),
      );
    };
    on('connect', () => {
      this.changed();
      void this.catchUp.resume();
    });
    on('disconnect', () => this.changed());
    // The gateway lost Redis for a while: pushes to this socket may be lost although it stayed connected.
    on('sync_required', () => void this.resync());
    on('new_message', (m: ChatMessageDto) => this.receive(m, 'live'));
    on('message_sent', (m: ChatMessageDto) => this.receive(m, 'live'));
    on('messages_read', (p: MessagesReadPayload) => this.onMessagesRead(p));
    on('user_typing', (p: { userId: string }) => this.setOtherTyping(p?.userId, true));
    on('user_stopped_typing', (p: { userId: string }) => this.setOtherTyping(p?.userId, false));

    if (this.connected) void this.catchUp.resume();
    else void this.reads.refreshUnread();
    this.changed();
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    for (const off of this.detach.splice(0)) off();
    this.catchUp.stopTimers();
    this.sends.stopTimers();
    this.typingState.stopTimers();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get connected(): boolean {
    return this.socket.socket.connected;
  }

  get unreadCount(): number {
    return this.reads.unreadCount;
  }

  get stats(): Readonly<ChatSyncStats> {
    return { ...this.counters };
  }

  /** Own messages not stored yet (pending and failed), in creation order. */
  get unsent(): readonly PendingMessage[] {
    return this.sends.list;
  }

  // ---------------------------------------------------------------- conversations

  /** Tracks the conversation, loads its newest page (or what followed, when already loaded) and marks it read. */
  async open(userId: string): Promise<void> {
    const c = this.conversation(userId);
    c.open = true;
    if (c.contiguous === null) {
      const page = await this.api.getConversation(userId);
      this.mergePage(c, page, true);
    } else {
      await this.catchUp.fill(c);
    }
    this.changed();
    await this.reads.markRead(c);
  }

  close(userId: string): void {
    const c = this.conversations.get(userId);
    if (!c) return;
    c.open = false;
    // Leaving the conversation mid-word: the other side stops showing 'typing...' now, not in 5 s.
    this.typingState.endOwn(userId, true);
    this.changed();
  }

  entries(userId: string): readonly ChatEntry[] {
    return this.conversations.get(userId)?.entries(this.selfId, this.sends.list) ?? NO_ENTRIES;
  }

  hasOlder(userId: string): boolean {
    return this.conversations.get(userId)?.hasOlder ?? false;
  }

  async loadOlder(userId: string): Promise<void> {
    const c = this.conversations.get(userId);
    if (!c || !c.hasOlder || c.nextBefore === null) return;
    const page = await this.api.getConversation(userId, { before: c.nextBefore });
    this.mergePage(c, page, false);
    c.pagedTo(page);
    this.changed();
  }

  /**
   * Asks for what followed in every tracked conversation and sends what is unsent, as on a
   * reconnect. The app may call it when the page becomes visible again; pushes lost while the
   * socket stayed up (a Redis outage) otherwise show up with the next message or connect.
   */
  resync(): Promise<void> {
    if (!this.started || !this.connected) return Promise.resolve();
    return this.catchUp.resume();
  }

  async refreshUnread(): Promise<void> {
    await this.reads.refreshUnread();
  }

  // ---------------------------------------------------------------- sending

  send(userId: string, content: string): ChatEntry {
    const text = normalizeMessageContent(content);
    if (!text) throw new Error(ChatMessages.emptyMessage);
    if (messageLength(text) > CHAT_MESSAGE_MAX_LENGTH) throw new Error(ChatMessages.tooLong);
    if (userId === this.selfId) throw new Error(ChatMessages.messageSelf);
    const c = this.conversation(userId);
    this.typingState.endOwn(userId, true);
    const p: PendingMessage = {
      clientId: this.newClientId(),
      recipientId: userId,
      content: text,
      createdAt: new Date(this.now()).toISOString(),
      status: 'pending',
      senderId: this.selfId,
    };
    this.sends.add(p);
    c.invalidate();
    this.changed();
    this.sends.flush(userId);
    return this.entries(userId).find((e) => e.clientId === p.clientId) as ChatEntry;
  }

  retry(clientId: string): void {
    const p = this.sends.requeue(clientId);
    if (!p) return;
    this.conversation(p.recipientId).invalidate();
    this.changed();
    this.sends.flush(p.recipientId);
  }

  // ---------------------------------------------------------------- typing

  typing(userId: string): void {
    this.conversation(userId);
    this.typingState.typing(userId);
  }

  isTyping(userId: string): boolean {
    return this.typingState.isOtherTyping(userId);
  }

  // ---------------------------------------------------------------- internals

  /** `page`: part of a page the caller marks read itself. */
  private receive(message: ChatMessageDto, via: 'live' | 'ack' | 'resume' | 'page'): void {
    if (!message || typeof message.id !== 'string' || typeof message.seq !== 'number') return;
    const mine = message.senderId === this.selfId;
    const otherId = mine ? message.recipientId : message.senderId;
    const c = this.conversation(otherId);
    const fresh = c.keep(message, this.counters);
    if (mine && message.clientId) this.sends.settle(message.clientId);
    if (!fresh) return;
    if (!mine) {
      if (via === 'live') this.counters.deliveredLive++;
      else this.counters.deliveredByResume++;
      this.setOtherTyping(otherId, false);
      if (c.open && via !== 'page') void this.reads.markRead(c);
      else if (via === 'live' && !message.isRead) this.reads.countUnread();
    }
    this.changed();
    if ((via === 'live' || via === 'ack') && c.hasGap()) {
      this.counters.gapsFilled++;
      void this.catchUp.fill(c);
    }
  }

  private mergePage(c: MessageLog, page: ConversationPageDto, newest: boolean): void {
    const messages = Array.isArray(page?.messages) ? page.messages : [];
    if (newest) c.startAt(page, messages);
    for (const m of messages) this.receive(m, 'page');
    c.advance();
    c.invalidate();
    if (newest && c.hasGap(page.lastSeq)) void this.catchUp.fill(c);
  }

  private onMessagesRead(p: MessagesReadPayload): void {
    if (!p || typeof p.userId !== 'string' || typeof p.readUpTo !== 'number') return;
    this.reads.readByOther(p, this.conversations.get(p.userId));
  }

  private setOtherTyping(userId: unknown, typing: boolean): void {
    if (typeof userId !== 'string') return;
    // News of the other member typing starts tracking the conversation, as a message would.
    if (typing) this.conversation(userId);
    else if (!this.conversations.has(userId)) return;
    this.typingState.setOther(userId, typing);
  }

  private conversation(userId: string): MessageLog {
    let c = this.conversations.get(userId);
    if (!c) {
      c = new MessageLog(userId);
      this.conversations.set(userId, c);
    }
    return c;
  }

  private changed(): void {
    if (this.notifyQueued) return;
    this.notifyQueued = true;
    queueMicrotask(() => {
      this.notifyQueued = false;
      for (const listener of [...this.listeners]) listener();
    });
  }
}

function defaultClientId(): string {
  return globalThis.crypto.randomUUID();
}

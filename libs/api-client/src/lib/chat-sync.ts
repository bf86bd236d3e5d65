import {
  CHAT_CLIENT_ID_PATTERN,
  CHAT_MESSAGE_MAX_LENGTH,
  CHAT_SYNC_MAX_CONVERSATIONS,
  ChatMessages,
  ErrorCode,
  SOCKET_RECONNECTION_DELAY,
  SOCKET_RECONNECTION_DELAY_MAX,
  TYPING_STOP_AFTER_MS,
  messageLength,
  normalizeMessageContent,
  type ChatMessageDto,
  type ConversationPageDto,
  type MessagesReadPayload,
} from '@mate/contracts';
import type { ChatApi } from './chat';
import { SocketError, type SocketClient } from './socket';

/**
 * ChatSync: the client side of chat delivery (issue 9 "Resume", spec 000 §4 Chat), one engine for
 * the web app, the chaos test, the bench and the e2e journeys. Framework-free; a React screen reads
 * it with `useSyncExternalStore(sync.subscribe, () => sync.entries(userId))`.
 *
 * What it guarantees, with a server that stores before it acknowledges and keys retries by
 * `clientId` (contracts/chat.ts):
 * - nothing typed is lost: a message stays 'pending' (and in `pendingStore`) until the server's
 *   acknowledgement or the stored message itself comes back; it is re-sent with the same
 *   `clientId` after a reconnect or a backoff, one at a time per conversation, in creation order;
 * - nothing is shown twice: messages are kept by `id`, a pending entry disappears when a stored
 *   message with its `clientId` arrives by any path (ack, `message_sent`, resume);
 * - nothing is shown out of order: entries are ordered by `seq`; a `seq` past the next expected
 *   one, and every (re)connect, asks for what follows the last contiguous `seq` (a message that
 *   arrived past a hole is shown at once, and the hole's messages take their places above it when
 *   the fill answers; a fill the service could not answer is tried again with backoff);
 * - the pending store is shared safely: a save keeps what another engine of the same member (a
 *   second tab, an engine stopped a moment ago) saved and this one does not know as stored, and a
 *   load ignores malformed entries and those of another sender.
 */

export type ChatEntryStatus = 'pending' | 'sent' | 'read' | 'failed';

export interface ChatEntry {
  /** The message id, or the clientId while it is pending or failed. */
  key: string;
  clientId: string | null;
  /** The stored message; null while pending or failed. */
  message: ChatMessageDto | null;
  content: string;
  senderId: string;
  createdAt: string;
  status: ChatEntryStatus;
  /** Why the server refused it ('failed' only). */
  error?: string;
  mine: boolean;
}

/** An own message not stored yet, as `pendingStore` keeps it. */
export interface PendingMessage {
  clientId: string;
  recipientId: string;
  /** Who wrote it (written by every save; an entry of another member found in the store is ignored). */
  senderId?: string;
  content: string;
  createdAt: string;
  status: 'pending' | 'failed';
  error?: string;
}

export interface PendingStore {
  load(): PendingMessage[];
  save(pending: PendingMessage[]): void;
}

export interface ChatSyncOptions {
  socket: SocketClient;
  api: ChatApi;
  selfId: string;
  /** Where unsent messages survive a reload (web: localStorage; default in-memory). */
  pendingStore?: PendingStore;
  newClientId?: () => string;
  now?: () => number;
  /** Random source of the retry jitter (tests pin it). */
  random?: () => number;
}

/** What the engine did, for the chaos test and the bench. */
export interface ChatSyncStats {
  /** send_message requests emitted (first attempts and retries). */
  sendAttempts: number;
  /** Own messages confirmed stored (by ack or by a resume that brought them back). */
  acked: number;
  /** send_message requests that repeated an earlier attempt's clientId. */
  retries: number;
  /** Other members' messages first seen as a live push (`new_message`). */
  deliveredLive: number;
  /** Other members' messages first seen through resume (sync_messages, REST pages). */
  deliveredByResume: number;
  /** Messages received again that were already held (kept once). */
  duplicatesDropped: number;
  /** Completed resumes (one per connect). */
  resumes: number;
  /** Gaps noticed in a conversation's sequence. */
  gapsFilled: number;
}

/** How long 'typing...' stays without news from the other member (a lost user_stopped_typing). */
export const TYPING_INDICATOR_TIMEOUT_MS = 5000;

/** Codes after which a send is tried again (the server was away or busy); any other code is a refusal. */
const RETRYABLE_CODES = new Set<string>([
  ErrorCode.ServiceUnavailable,
  ErrorCode.RateLimited,
  ErrorCode.RequestTimeout,
  ErrorCode.Internal,
]);

/** A refusal the member must see (a 4xx); anything else (offline, timeout, 5xx) is retried. */
function isRefusal(err: unknown): err is SocketError {
  return err instanceof SocketError && err.code !== undefined && !RETRYABLE_CODES.has(err.code);
}

interface Conversation {
  userId: string;
  /** Messages by id. */
  byId: Map<string, ChatMessageDto>;
  /** Sequence numbers held, and the highest. */
  seqs: Set<number>;
  maxSeq: number;
  /** Set once a page was loaded: the highest seq with no hole below it (down to the oldest page). */
  contiguous: number | null;
  nextBefore: number | null;
  hasOlder: boolean;
  open: boolean;
  /** A gap fill is running / another one is wanted after it. */
  filling: boolean;
  refill: boolean;
  /** mark_as_read is running / wanted again after it. */
  marking: Promise<void> | null;
  remark: boolean;
  /** A send_message of this conversation is waiting for its answer. */
  sending: boolean;
  sendAttempt: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** Own clientIds already emitted once (a second emit is a retry). */
  triedClientIds: Set<string>;
  /** The current entries; null once something changed (rebuilt on the next read). */
  entries: readonly ChatEntry[] | null;
  /** The last entries built, whose unchanged items the next build reuses. */
  built: readonly ChatEntry[];
  /** Other member typing: cleared by user_stopped_typing or after TYPING_INDICATOR_TIMEOUT_MS. */
  otherTypingTimer: ReturnType<typeof setTimeout> | null;
  /** Own typing stretch: stop_typing fires when this timer ends. */
  ownTypingTimer: ReturnType<typeof setTimeout> | null;
}

const EMPTY: readonly ChatEntry[] = Object.freeze([]);

function defaultClientId(): string {
  return globalThis.crypto.randomUUID();
}

/** A stored pending message as this engine can send it, or null (malformed, another sender's, to oneself). */
function validPending(raw: unknown, selfId: string): PendingMessage | null {
  if (!raw || typeof raw !== 'object') return null;
  const p = raw as Partial<Record<keyof PendingMessage, unknown>>;
  if (typeof p.clientId !== 'string' || !CHAT_CLIENT_ID_PATTERN.test(p.clientId)) return null;
  if (typeof p.recipientId !== 'string' || !p.recipientId || p.recipientId === selfId) return null;
  if (p.senderId !== undefined && p.senderId !== selfId) return null;
  if (typeof p.content !== 'string') return null;
  const content = normalizeMessageContent(p.content);
  if (!content || messageLength(content) > CHAT_MESSAGE_MAX_LENGTH) return null;
  const failed = p.status === 'failed';
  return {
    clientId: p.clientId,
    recipientId: p.recipientId,
    senderId: selfId,
    content,
    createdAt: typeof p.createdAt === 'string' ? p.createdAt : new Date(0).toISOString(),
    status: failed ? 'failed' : 'pending',
    ...(failed && typeof p.error === 'string' ? { error: p.error } : {}),
  };
}

function memoryStore(): PendingStore {
  let saved: PendingMessage[] = [];
  return {
    load: () => saved.map((p) => ({ ...p })),
    save: (pending) => {
      saved = pending.map((p) => ({ ...p }));
    },
  };
}

export class ChatSync {
  private readonly socket: SocketClient;
  private readonly api: ChatApi;
  private readonly selfId: string;
  private readonly store: PendingStore;
  private readonly newClientId: () => string;
  private readonly now: () => number;
  private readonly random: () => number;

  private readonly conversations = new Map<string, Conversation>();
  /** Own unsent messages in creation order (over all conversations). */
  private pending: PendingMessage[] = [];
  /** Own clientIds seen stored: a save drops them from what another engine left in the store. */
  private readonly storedClientIds = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly detach: (() => void)[] = [];
  private started = false;
  private unread = 0;
  private resuming: Promise<void> | null = null;
  private resumeAgain = false;
  private resumeAttempt = 0;
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;
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
    this.store = options.pendingStore ?? memoryStore();
    this.newClientId = options.newClientId ?? defaultClientId;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  // ---------------------------------------------------------------- lifecycle

  start(): void {
    if (this.started) return;
    this.started = true;
    // What this engine still holds (a restart after stop(); a store that could not be written)
    // stays, in its order; the store adds what it does not hold.
    const seen = new Set(this.pending.map((p) => p.clientId));
    for (const p of this.loadStore()) {
      if (seen.has(p.clientId) || this.storedClientIds.has(p.clientId)) continue;
      seen.add(p.clientId);
      this.pending.push(p);
    }
    for (const p of this.pending) this.conversation(p.recipientId).entries = null;

    const s = this.socket.socket;
    const on = <A extends unknown[]>(event: string, handler: (...args: A) => void) => {
      (s as unknown as { on(e: string, h: (...args: A) => void): void }).on(event, handler);
      this.detach.push(() =>
        (s as unknown as { off(e: string, h: (...args: A) => void): void }).off(event, handler),
      );
    };
    on('connect', () => {
      this.changed();
      void this.resume();
    });
    on('disconnect', () => this.changed());
    // The gateway lost Redis for a while: pushes to this socket may be lost although it stayed connected.
    on('sync_required', () => void this.resync());
    on('new_message', (m: ChatMessageDto) => this.receive(m, 'live'));
    on('message_sent', (m: ChatMessageDto) => this.receive(m, 'live'));
    on('messages_read', (p: MessagesReadPayload) => this.onMessagesRead(p));
    on('user_typing', (p: { userId: string }) => this.setOtherTyping(p?.userId, true));
    on('user_stopped_typing', (p: { userId: string }) => this.setOtherTyping(p?.userId, false));

    if (this.connected) void this.resume();
    else void this.refreshUnread();
    this.changed();
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    for (const off of this.detach.splice(0)) off();
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    for (const c of this.conversations.values()) {
      for (const t of [c.retryTimer, c.otherTypingTimer, c.ownTypingTimer]) if (t) clearTimeout(t);
      c.retryTimer = c.otherTypingTimer = c.ownTypingTimer = null;
    }
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get connected(): boolean {
    return this.socket.socket.connected;
  }

  get unreadCount(): number {
    return this.unread;
  }

  get stats(): Readonly<ChatSyncStats> {
    return { ...this.counters };
  }

  /** Own messages not stored yet (pending and failed), in creation order. */
  get unsent(): readonly PendingMessage[] {
    return this.pending;
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
      await this.fill(c);
    }
    this.changed();
    await this.markRead(c);
  }

  close(userId: string): void {
    const c = this.conversations.get(userId);
    if (!c) return;
    c.open = false;
    // Leaving the conversation mid-word: the other side stops showing 'typing...' now, not in 5 s.
    this.endOwnTyping(c, true);
    this.changed();
  }

  entries(userId: string): readonly ChatEntry[] {
    const c = this.conversations.get(userId);
    if (!c) return EMPTY;
    if (!c.entries) c.entries = c.built = this.buildEntries(c);
    return c.entries;
  }

  hasOlder(userId: string): boolean {
    return this.conversations.get(userId)?.hasOlder ?? false;
  }

  async loadOlder(userId: string): Promise<void> {
    const c = this.conversations.get(userId);
    if (!c || !c.hasOlder || c.nextBefore === null) return;
    const page = await this.api.getConversation(userId, { before: c.nextBefore });
    this.mergePage(c, page, false);
    c.nextBefore = page.nextBefore;
    c.hasOlder = page.hasMore && page.nextBefore !== null;
    this.changed();
  }

  // ---------------------------------------------------------------- sending

  send(userId: string, content: string): ChatEntry {
    const text = normalizeMessageContent(content);
    if (!text) throw new Error(ChatMessages.emptyMessage);
    if (messageLength(text) > CHAT_MESSAGE_MAX_LENGTH) throw new Error(ChatMessages.tooLong);
    if (userId === this.selfId) throw new Error(ChatMessages.messageSelf);
    const c = this.conversation(userId);
    this.endOwnTyping(c, true);
    const p: PendingMessage = {
      clientId: this.newClientId(),
      recipientId: userId,
      content: text,
      createdAt: new Date(this.now()).toISOString(),
      status: 'pending',
      senderId: this.selfId,
    };
    this.pending.push(p);
    this.savePending();
    c.entries = null;
    this.changed();
    this.flush(c);
    return this.entries(userId).find((e) => e.clientId === p.clientId) as ChatEntry;
  }

  retry(clientId: string): void {
    const i = this.pending.findIndex((p) => p.clientId === clientId && p.status === 'failed');
    if (i < 0) return;
    // Back in the queue behind what is pending, so the conversation's order stays the order of sending.
    const [p] = this.pending.splice(i, 1);
    this.pending.push({ ...p, status: 'pending', error: undefined });
    this.savePending();
    const c = this.conversation(p.recipientId);
    c.entries = null;
    this.changed();
    this.flush(c);
  }

  /** Sends the conversation's oldest pending message, then the next, one at a time. */
  private flush(c: Conversation): void {
    if (!this.started || c.sending || c.retryTimer || !this.connected) return;
    const p = this.pending.find((x) => x.recipientId === c.userId && x.status === 'pending');
    if (!p) return;
    c.sending = true;
    this.counters.sendAttempts++;
    if (c.triedClientIds.has(p.clientId)) this.counters.retries++;
    c.triedClientIds.add(p.clientId);
    this.socket
      .request('send_message', { recipientId: c.userId, content: p.content, clientId: p.clientId })
      .then(
        (message) => {
          c.sending = false;
          c.sendAttempt = 0;
          this.receive(message as ChatMessageDto, 'ack');
          // An answer without our clientId (an old server) still settles this one.
          this.settlePending(p.clientId);
          this.flush(c);
        },
        (err: unknown) => {
          c.sending = false;
          if (!this.started) return;
          if (!this.pending.includes(p)) {
            this.flush(c);
            return;
          }
          if (isRefusal(err)) {
            p.status = 'failed';
            p.error = err.message;
            this.savePending();
            c.entries = null;
            this.changed();
            this.flush(c);
            return;
          }
          this.scheduleRetry(c);
        },
      );
  }

  /** Spec 000 §7's reconnection delays (1 s doubling to 5 s), jittered; a connect retries at once. */
  private scheduleRetry(c: Conversation): void {
    if (c.retryTimer || !this.started) return;
    const base = Math.min(SOCKET_RECONNECTION_DELAY * 2 ** c.sendAttempt, SOCKET_RECONNECTION_DELAY_MAX);
    c.sendAttempt++;
    const delay = base * (0.5 + this.random() * 0.5);
    c.retryTimer = setTimeout(() => {
      c.retryTimer = null;
      this.flush(c);
    }, delay);
  }

  private settlePending(clientId: string): void {
    this.storedClientIds.add(clientId);
    const i = this.pending.findIndex((p) => p.clientId === clientId);
    if (i < 0) return;
    const [p] = this.pending.splice(i, 1);
    this.counters.acked++;
    this.savePending();
    this.conversation(p.recipientId).entries = null;
    this.changed();
  }

  /** The store's entries this engine may send (never throws: an unreadable store holds nothing). */
  private loadStore(): PendingMessage[] {
    let raw: unknown;
    try {
      raw = this.store.load();
    } catch {
      return [];
    }
    if (!Array.isArray(raw)) return [];
    const out: PendingMessage[] = [];
    for (const item of raw) {
      const p = validPending(item, this.selfId);
      if (p) out.push(p);
    }
    return out;
  }

  /**
   * Writes this engine's unsent messages, keeping those another engine of the same member put in
   * the store (a second tab; an engine stopped a moment ago whose late answer would otherwise
   * overwrite its successor's) unless this one knows them stored. They are sent by the next
   * engine that starts (or by their own); a clientId is stored once whoever sends it.
   */
  private savePending(): void {
    const own = new Set(this.pending.map((p) => p.clientId));
    const others = this.loadStore().filter(
      (p) => !own.has(p.clientId) && !this.storedClientIds.has(p.clientId),
    );
    try {
      this.store.save([...this.pending.map((p) => ({ ...p })), ...others]);
    } catch {
      // A full or blocked store: the messages are still held (and sent) by this engine.
    }
  }

  // ---------------------------------------------------------------- receiving

  /** `page`: part of a page the caller marks read itself. */
  private receive(message: ChatMessageDto, via: 'live' | 'ack' | 'resume' | 'page'): void {
    if (!message || typeof message.id !== 'string' || typeof message.seq !== 'number') return;
    const mine = message.senderId === this.selfId;
    const otherId = mine ? message.recipientId : message.senderId;
    const c = this.conversation(otherId);
    const fresh = this.store1(c, message);
    if (mine && message.clientId) this.settlePending(message.clientId);
    if (!fresh) return;
    if (!mine) {
      if (via === 'live') this.counters.deliveredLive++;
      else this.counters.deliveredByResume++;
      this.setOtherTyping(otherId, false);
      if (c.open && via !== 'page') void this.markRead(c);
      else if (via === 'live' && !message.isRead) this.unread++;
    }
    this.changed();
    if ((via === 'live' || via === 'ack') && this.hasGap(c)) {
      this.counters.gapsFilled++;
      void this.fill(c);
    }
  }

  /** Keeps a message once (by id); returns whether it was new. */
  private store1(c: Conversation, message: ChatMessageDto): boolean {
    const held = c.byId.get(message.id);
    if (held) {
      this.counters.duplicatesDropped++;
      if (message.isRead && !held.isRead) {
        c.byId.set(message.id, { ...held, isRead: true });
        c.entries = null;
      }
      return false;
    }
    c.byId.set(message.id, message);
    c.seqs.add(message.seq);
    if (message.seq > c.maxSeq) c.maxSeq = message.seq;
    if (c.contiguous !== null) this.advance(c);
    c.entries = null;
    return true;
  }

  private advance(c: Conversation): void {
    if (c.contiguous === null) return;
    while (c.seqs.has(c.contiguous + 1)) c.contiguous++;
  }

  private mergePage(c: Conversation, page: ConversationPageDto, newest: boolean): void {
    const messages = Array.isArray(page?.messages) ? page.messages : [];
    if (newest) {
      const first = messages[0]?.seq ?? (typeof page.lastSeq === 'number' ? page.lastSeq + 1 : 1);
      // What is held below the page (another device's push) does not count as contiguous history.
      c.contiguous = first - 1;
      c.nextBefore = page.nextBefore;
      c.hasOlder = page.hasMore && page.nextBefore !== null;
    }
    for (const m of messages) this.receive(m, 'page');
    this.advance(c);
    c.entries = null;
    if (newest && this.hasGap(c, page.lastSeq)) void this.fill(c);
  }

  /** Whether something above the last contiguous seq is known to exist (held, or told by the server). */
  private hasGap(c: Conversation, knownLastSeq = 0): boolean {
    if (c.contiguous === null) return false;
    return Math.max(c.maxSeq, typeof knownLastSeq === 'number' ? knownLastSeq : 0) > c.contiguous;
  }

  /** Asks for what follows the conversation's last contiguous seq, until nothing more. */
  private async fill(c: Conversation): Promise<void> {
    if (c.contiguous === null) return;
    if (c.filling) {
      c.refill = true;
      return;
    }
    c.filling = true;
    try {
      do {
        c.refill = false;
        await this.fetchAfter(c);
      } while (c.refill);
    } catch {
      // Offline: the next connect resumes from the same point. The service away while the socket
      // stays up: no connect will come, so the resume (every tracked conversation) is tried again.
      if (this.connected) this.scheduleResume();
    } finally {
      c.filling = false;
    }
  }

  private async fetchAfter(c: Conversation): Promise<void> {
    for (;;) {
      const after = c.contiguous as number;
      let messages: ChatMessageDto[];
      let hasMore: boolean;
      if (this.connected) {
        const result = await this.socket.request('sync_messages', {
          conversations: [{ userId: c.userId, afterSeq: after }],
        });
        messages = result.messages;
        hasMore = result.hasMore;
      } else {
        const page = await this.api.getConversation(c.userId, { after });
        messages = page.messages;
        hasMore = page.hasMore;
      }
      for (const m of messages) this.receive(m, 'resume');
      this.advance(c);
      if (!hasMore || (c.contiguous as number) <= after) return;
    }
  }

  /** On every (re)connect: what followed in every tracked conversation, then the unsent messages. */
  private resume(): Promise<void> {
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
        if (!this.connected || !this.started) break;
        if (!synced) this.scheduleResume();
        else this.resumeAttempt = 0;
        for (const c of this.conversations.values()) {
          if (c.retryTimer) {
            clearTimeout(c.retryTimer);
            c.retryTimer = null;
          }
          c.sendAttempt = 0;
          this.flush(c);
        }
        await this.refreshUnread();
        this.counters.resumes++;
      } while (this.resumeAgain && this.connected && this.started);
    })().finally(() => {
      this.resuming = null;
    });
    return this.resuming;
  }

  /** A resume the service could not answer (it was away while the socket stayed up) is tried again. */
  private scheduleResume(): void {
    if (this.resumeTimer || !this.started) return;
    const base = Math.min(SOCKET_RECONNECTION_DELAY * 2 ** this.resumeAttempt, SOCKET_RECONNECTION_DELAY_MAX);
    this.resumeAttempt++;
    this.resumeTimer = setTimeout(
      () => {
        this.resumeTimer = null;
        void this.resume();
      },
      base * (0.5 + this.random() * 0.5),
    );
  }

  /**
   * Asks for what followed in every tracked conversation and sends what is unsent, as on a
   * reconnect. The app may call it when the page becomes visible again; pushes lost while the
   * socket stayed up (a Redis outage) otherwise show up with the next message or connect.
   */
  resync(): Promise<void> {
    if (!this.started || !this.connected) return Promise.resolve();
    return this.resume();
  }

  private async syncTracked(): Promise<void> {
    const tracked = [...this.conversations.values()].filter((c) => c.contiguous !== null);
    for (let i = 0; i < tracked.length; i += CHAT_SYNC_MAX_CONVERSATIONS) {
      const batch = tracked.slice(i, i + CHAT_SYNC_MAX_CONVERSATIONS);
      while (this.connected) {
        const before = batch.map((c) => c.contiguous as number);
        const result = await this.socket.request('sync_messages', {
          conversations: batch.map((c) => ({ userId: c.userId, afterSeq: c.contiguous as number })),
        });
        for (const m of result.messages) this.receive(m, 'resume');
        for (const c of batch) this.advance(c);
        // Ask again from the new positions, unless the answer moved none (a server repeating itself).
        if (!result.hasMore || batch.every((c, j) => (c.contiguous as number) <= before[j])) break;
      }
    }
  }

  // ---------------------------------------------------------------- read state

  /** Marks the conversation read; calls while one runs join it (it runs once more for them). */
  private markRead(c: Conversation): Promise<void> {
    if (c.marking) {
      c.remark = true;
      return c.marking;
    }
    c.marking = this.markReadNow(c).finally(() => {
      c.marking = null;
      this.changed();
    });
    return c.marking;
  }

  private async markReadNow(c: Conversation): Promise<void> {
    try {
      do {
        c.remark = false;
        let readUpTo: number;
        if (this.connected)
          readUpTo = (await this.socket.request('mark_as_read', { otherUserId: c.userId })).readUpTo;
        else readUpTo = (await this.api.markAsRead(c.userId)).readUpTo;
        let touched = false;
        for (const [id, m] of c.byId) {
          if (m.senderId === c.userId && !m.isRead && m.seq <= readUpTo) {
            c.byId.set(id, { ...m, isRead: true });
            touched = true;
          }
        }
        if (touched) c.entries = null;
      } while (c.remark);
      await this.refreshUnread();
    } catch {
      // Marked on the next open or message; the count refreshes on the next connect.
    }
  }

  private onMessagesRead(p: MessagesReadPayload): void {
    if (!p || typeof p.userId !== 'string' || typeof p.readUpTo !== 'number') return;
    const c = this.conversations.get(p.userId);
    if (!c) return;
    let touched = false;
    for (const [id, m] of c.byId) {
      if (m.senderId === this.selfId && !m.isRead && m.seq <= p.readUpTo) {
        c.byId.set(id, { ...m, isRead: true });
        touched = true;
      }
    }
    if (touched) {
      c.entries = null;
      this.changed();
    }
  }

  async refreshUnread(): Promise<void> {
    try {
      const count = await this.api.getUnreadCount();
      if (count !== this.unread) {
        this.unread = count;
        this.changed();
      }
    } catch {
      // Keeps the last known count.
    }
  }

  // ---------------------------------------------------------------- typing

  typing(userId: string): void {
    const c = this.conversation(userId);
    if (c.ownTypingTimer) clearTimeout(c.ownTypingTimer);
    else this.emitQuietly('typing', userId);
    c.ownTypingTimer = setTimeout(() => this.endOwnTyping(c, true), TYPING_STOP_AFTER_MS);
  }

  isTyping(userId: string): boolean {
    return this.conversations.get(userId)?.otherTypingTimer != null;
  }

  private endOwnTyping(c: Conversation, emit: boolean): void {
    if (!c.ownTypingTimer) return;
    clearTimeout(c.ownTypingTimer);
    c.ownTypingTimer = null;
    if (emit) this.emitQuietly('stop_typing', c.userId);
  }

  private emitQuietly(event: 'typing' | 'stop_typing', recipientId: string): void {
    if (!this.connected) return;
    this.socket.request(event, { recipientId }).catch(() => undefined);
  }

  private setOtherTyping(userId: unknown, typing: boolean): void {
    if (typeof userId !== 'string') return;
    const c = this.conversations.get(userId) ?? (typing ? this.conversation(userId) : undefined);
    if (!c) return;
    const was = c.otherTypingTimer != null;
    if (c.otherTypingTimer) clearTimeout(c.otherTypingTimer);
    c.otherTypingTimer = typing
      ? setTimeout(() => this.setOtherTyping(userId, false), TYPING_INDICATOR_TIMEOUT_MS)
      : null;
    if (was !== typing) this.changed();
  }

  // ---------------------------------------------------------------- internals

  private conversation(userId: string): Conversation {
    let c = this.conversations.get(userId);
    if (!c) {
      c = {
        userId,
        byId: new Map(),
        seqs: new Set(),
        maxSeq: 0,
        contiguous: null,
        nextBefore: null,
        hasOlder: false,
        open: false,
        filling: false,
        refill: false,
        marking: null,
        remark: false,
        sending: false,
        sendAttempt: 0,
        retryTimer: null,
        triedClientIds: new Set(),
        entries: null,
        built: EMPTY,
        otherTypingTimer: null,
        ownTypingTimer: null,
      };
      this.conversations.set(userId, c);
    }
    return c;
  }

  private buildEntries(c: Conversation): readonly ChatEntry[] {
    const previous = new Map(c.built.map((e) => [e.key, e]));
    const stored = [...c.byId.values()].sort((a, b) => a.seq - b.seq);
    const out: ChatEntry[] = [];
    for (const m of stored) {
      const mine = m.senderId === this.selfId;
      const status: ChatEntryStatus = m.isRead && mine ? 'read' : 'sent';
      out.push({
        key: m.id,
        clientId: m.clientId,
        message: m,
        content: m.content,
        senderId: m.senderId,
        createdAt: m.createdAt,
        status,
        mine,
      });
    }
    for (const p of this.pending) {
      if (p.recipientId !== c.userId) continue;
      out.push({
        key: p.clientId,
        clientId: p.clientId,
        message: null,
        content: p.content,
        senderId: this.selfId,
        createdAt: p.createdAt,
        status: p.status,
        ...(p.error ? { error: p.error } : {}),
        mine: true,
      });
    }
    // Entries that did not change keep their identity (React skips them).
    return Object.freeze(
      out.map((e) => {
        const old = previous.get(e.key);
        return old && old.message === e.message && old.status === e.status && old.error === e.error ? old : e;
      }),
    );
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

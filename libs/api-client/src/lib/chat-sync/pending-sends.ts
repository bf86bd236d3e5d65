import {
  CHAT_CLIENT_ID_PATTERN,
  CHAT_MESSAGE_MAX_LENGTH,
  ErrorCode,
  messageLength,
  normalizeMessageContent,
  type ChatMessageDto,
} from '@mate/contracts';
import { SocketError } from '../socket';
import { backoffDelay, type SyncContext } from './context';
import type { PendingMessage, PendingStore } from './types';

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

export function memoryStore(): PendingStore {
  let saved: PendingMessage[] = [];
  return {
    load: () => saved.map((p) => ({ ...p })),
    save: (pending) => {
      saved = pending.map((p) => ({ ...p }));
    },
  };
}

/** One conversation's sending: one send_message at a time, retried with backoff. */
interface SendQueue {
  /** A send_message of this conversation is waiting for its answer. */
  sending: boolean;
  attempt: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** Own clientIds already emitted once (a second emit is a retry). */
  tried: Set<string>;
}

export interface PendingSendsEvents {
  /** The server's acknowledgement: the stored message. */
  acknowledged(message: ChatMessageDto): void;
  /** The unsent messages to `recipientId` changed (added, failed, settled, back in the queue). */
  unsentChanged(recipientId: string): void;
}

/**
 * Own messages not stored yet, in creation order over all conversations, kept in the pending
 * store; each conversation sends its oldest pending one, then the next, with the same `clientId`
 * on every attempt, until the server acknowledges it or the stored message comes back.
 */
export class PendingSends {
  /** Own unsent messages in creation order (over all conversations). */
  list: PendingMessage[] = [];
  /** Own clientIds seen stored: a save drops them from what another engine left in the store. */
  private readonly storedClientIds = new Set<string>();
  private readonly queues = new Map<string, SendQueue>();

  constructor(
    private readonly ctx: SyncContext,
    private readonly store: PendingStore,
    private readonly events: PendingSendsEvents,
  ) {}

  /**
   * On start: what this engine still holds (a restart after stop(); a store that could not be
   * written) stays, in its order; the store adds what it does not hold.
   */
  restore(): void {
    const seen = new Set(this.list.map((p) => p.clientId));
    for (const p of this.loadStore()) {
      if (seen.has(p.clientId) || this.storedClientIds.has(p.clientId)) continue;
      seen.add(p.clientId);
      this.list.push(p);
    }
  }

  add(p: PendingMessage): void {
    this.list.push(p);
    this.save();
  }

  /** A failed message back in the queue; returns it, or null when there is no such failed one. */
  requeue(clientId: string): PendingMessage | null {
    const i = this.list.findIndex((p) => p.clientId === clientId && p.status === 'failed');
    if (i < 0) return null;
    // Back in the queue behind what is pending, so the conversation's order stays the order of sending.
    const [p] = this.list.splice(i, 1);
    this.list.push({ ...p, status: 'pending', error: undefined });
    this.save();
    return p;
  }

  /** The message with `clientId` is stored (acknowledged, or seen coming back). */
  settle(clientId: string): void {
    this.storedClientIds.add(clientId);
    const i = this.list.findIndex((p) => p.clientId === clientId);
    if (i < 0) return;
    const [p] = this.list.splice(i, 1);
    this.ctx.counters.acked++;
    this.save();
    this.events.unsentChanged(p.recipientId);
    this.ctx.changed();
  }

  /** Sends the conversation's oldest pending message, then the next, one at a time. */
  flush(userId: string): void {
    const q = this.queue(userId);
    if (!this.ctx.isStarted() || q.sending || q.retryTimer || !this.ctx.isConnected()) return;
    const p = this.list.find((x) => x.recipientId === userId && x.status === 'pending');
    if (!p) return;
    q.sending = true;
    this.ctx.counters.sendAttempts++;
    if (q.tried.has(p.clientId)) this.ctx.counters.retries++;
    q.tried.add(p.clientId);
    this.ctx.socket
      .request('send_message', { recipientId: userId, content: p.content, clientId: p.clientId })
      .then(
        (message) => {
          q.sending = false;
          q.attempt = 0;
          this.events.acknowledged(message as ChatMessageDto);
          // An answer without our clientId (an old server) still settles this one.
          this.settle(p.clientId);
          this.flush(userId);
        },
        (err: unknown) => {
          q.sending = false;
          if (!this.ctx.isStarted()) return;
          if (!this.list.includes(p)) {
            this.flush(userId);
            return;
          }
          if (isRefusal(err)) {
            p.status = 'failed';
            p.error = err.message;
            this.save();
            this.events.unsentChanged(userId);
            this.ctx.changed();
            this.flush(userId);
            return;
          }
          this.scheduleRetry(q, userId);
        },
      );
  }

  /** A (re)connect: the conversation sends at once, its backoff starting over. */
  flushNow(userId: string): void {
    const q = this.queue(userId);
    if (q.retryTimer) {
      clearTimeout(q.retryTimer);
      q.retryTimer = null;
    }
    q.attempt = 0;
    this.flush(userId);
  }

  stopTimers(): void {
    for (const q of this.queues.values()) {
      if (q.retryTimer) clearTimeout(q.retryTimer);
      q.retryTimer = null;
    }
  }

  /** Spec 000 §7's reconnection delays (1 s doubling to 5 s), jittered; a connect retries at once. */
  private scheduleRetry(q: SendQueue, userId: string): void {
    if (q.retryTimer || !this.ctx.isStarted()) return;
    const delay = backoffDelay(q.attempt++, this.ctx.random);
    q.retryTimer = setTimeout(() => {
      q.retryTimer = null;
      this.flush(userId);
    }, delay);
  }

  private queue(userId: string): SendQueue {
    let q = this.queues.get(userId);
    if (!q) {
      q = { sending: false, attempt: 0, retryTimer: null, tried: new Set() };
      this.queues.set(userId, q);
    }
    return q;
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
      const p = validPending(item, this.ctx.selfId);
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
  private save(): void {
    const own = new Set(this.list.map((p) => p.clientId));
    const others = this.loadStore().filter(
      (p) => !own.has(p.clientId) && !this.storedClientIds.has(p.clientId),
    );
    try {
      this.store.save([...this.list.map((p) => ({ ...p })), ...others]);
    } catch {
      // A full or blocked store: the messages are still held (and sent) by this engine.
    }
  }
}

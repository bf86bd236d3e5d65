import type { ChatMessageDto, ConversationPageDto } from '@mate/contracts';
import type { ChatEntry, ChatEntryStatus, ChatSyncStats, PendingMessage } from './types';

export const NO_ENTRIES: readonly ChatEntry[] = Object.freeze([]);

/**
 * One conversation's stored messages: each kept once by id, ordered by `seq`, with the highest
 * `seq` below which nothing is missing, so a gap can be asked for; and the entries a screen reads,
 * rebuilt only after a change, reusing the unchanged ones.
 */
export class MessageLog {
  /** Messages by id. */
  private readonly byId = new Map<string, ChatMessageDto>();
  /** Sequence numbers held, and the highest. */
  private readonly seqs = new Set<number>();
  private maxSeq = 0;
  /** Set once a page was loaded: the highest seq with no hole below it (down to the oldest page). */
  contiguous: number | null = null;
  nextBefore: number | null = null;
  hasOlder = false;
  /** On screen: its incoming messages are marked read as they come. */
  open = false;
  /** The current entries; null once something changed (rebuilt on the next read). */
  private current: readonly ChatEntry[] | null = null;
  /** The last entries built, whose unchanged items the next build reuses. */
  private built: readonly ChatEntry[] = NO_ENTRIES;

  constructor(readonly userId: string) {}

  /** Keeps a message once (by id); returns whether it was new. */
  keep(message: ChatMessageDto, counters: ChatSyncStats): boolean {
    const held = this.byId.get(message.id);
    if (held) {
      counters.duplicatesDropped++;
      if (message.isRead && !held.isRead) {
        this.byId.set(message.id, { ...held, isRead: true });
        this.current = null;
      }
      return false;
    }
    this.byId.set(message.id, message);
    this.seqs.add(message.seq);
    if (message.seq > this.maxSeq) this.maxSeq = message.seq;
    if (this.contiguous !== null) this.advance();
    this.current = null;
    return true;
  }

  advance(): void {
    if (this.contiguous === null) return;
    while (this.seqs.has(this.contiguous + 1)) this.contiguous++;
  }

  /** The newest page starts the contiguous history at its first message. */
  startAt(page: ConversationPageDto, messages: readonly ChatMessageDto[]): void {
    const first = messages[0]?.seq ?? (typeof page.lastSeq === 'number' ? page.lastSeq + 1 : 1);
    // What is held below the page (another device's push) does not count as contiguous history.
    this.contiguous = first - 1;
    this.pagedTo(page);
  }

  /** Where the next older page starts, after `page`. */
  pagedTo(page: ConversationPageDto): void {
    this.nextBefore = page.nextBefore;
    this.hasOlder = page.hasMore && page.nextBefore !== null;
  }

  /** Whether something above the last contiguous seq is known to exist (held, or told by the server). */
  hasGap(knownLastSeq = 0): boolean {
    if (this.contiguous === null) return false;
    return Math.max(this.maxSeq, typeof knownLastSeq === 'number' ? knownLastSeq : 0) > this.contiguous;
  }

  /** Marks read what `senderId` wrote up to `readUpTo`; returns whether anything changed. */
  markReadUpTo(senderId: string, readUpTo: number): boolean {
    let touched = false;
    for (const [id, m] of this.byId) {
      if (m.senderId === senderId && !m.isRead && m.seq <= readUpTo) {
        this.byId.set(id, { ...m, isRead: true });
        touched = true;
      }
    }
    if (touched) this.current = null;
    return touched;
  }

  /** Something the entries show changed (a message, or this conversation's unsent ones). */
  invalidate(): void {
    this.current = null;
  }

  /** The stored messages in seq order, then the own unsent ones (`pending`, all conversations'). */
  entries(selfId: string, pending: readonly PendingMessage[]): readonly ChatEntry[] {
    if (!this.current) this.current = this.built = this.build(selfId, pending);
    return this.current;
  }

  private build(selfId: string, pending: readonly PendingMessage[]): readonly ChatEntry[] {
    const previous = new Map(this.built.map((e) => [e.key, e]));
    const stored = [...this.byId.values()].sort((a, b) => a.seq - b.seq);
    const out: ChatEntry[] = [];
    for (const m of stored) {
      const mine = m.senderId === selfId;
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
    for (const p of pending) {
      if (p.recipientId !== this.userId) continue;
      out.push({
        key: p.clientId,
        clientId: p.clientId,
        message: null,
        content: p.content,
        senderId: selfId,
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
}

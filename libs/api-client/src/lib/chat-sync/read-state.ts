import type { MessagesReadPayload } from '@mate/contracts';
import type { SyncContext } from './context';
import type { MessageLog } from './message-log';

/** mark_as_read of one conversation: running, and wanted once more after it. */
interface Marking {
  running: Promise<void> | null;
  again: boolean;
}

/**
 * What has been read: the member's unread count, the conversations they read (mark_as_read, calls
 * made while one runs joining it), and the other member reading theirs (`messages_read`).
 */
export class ReadState {
  private unread = 0;
  private readonly marking = new Map<string, Marking>();

  constructor(private readonly ctx: SyncContext) {}

  get unreadCount(): number {
    return this.unread;
  }

  /** A message arrived live in a conversation not on screen. */
  countUnread(): void {
    this.unread++;
  }

  /** Marks the conversation read; calls while one runs join it (it runs once more for them). */
  markRead(log: MessageLog): Promise<void> {
    const m = this.markingOf(log.userId);
    if (m.running) {
      m.again = true;
      return m.running;
    }
    m.running = this.markReadNow(log, m).finally(() => {
      m.running = null;
      this.ctx.changed();
    });
    return m.running;
  }

  /** The other member read up to `readUpTo`: own messages show 'read'. */
  readByOther(p: MessagesReadPayload, log: MessageLog | undefined): void {
    if (!log) return;
    if (log.markReadUpTo(this.ctx.selfId, p.readUpTo)) this.ctx.changed();
  }

  async refreshUnread(): Promise<void> {
    try {
      const count = await this.ctx.api.getUnreadCount();
      if (count !== this.unread) {
        this.unread = count;
        this.ctx.changed();
      }
    } catch {
      // Keeps the last known count.
    }
  }

  private async markReadNow(log: MessageLog, m: Marking): Promise<void> {
    try {
      do {
        m.again = false;
        let readUpTo: number;
        if (this.ctx.isConnected())
          readUpTo = (await this.ctx.socket.request('mark_as_read', { otherUserId: log.userId })).readUpTo;
        else readUpTo = (await this.ctx.api.markAsRead(log.userId)).readUpTo;
        log.markReadUpTo(log.userId, readUpTo);
      } while (m.again);
      await this.refreshUnread();
    } catch {
      // Marked on the next open or message; the count refreshes on the next connect.
    }
  }

  private markingOf(userId: string): Marking {
    let m = this.marking.get(userId);
    if (!m) {
      m = { running: null, again: false };
      this.marking.set(userId, m);
    }
    return m;
  }
}

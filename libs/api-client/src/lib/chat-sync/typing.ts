import { TYPING_STOP_AFTER_MS } from '@mate/contracts';
import type { SyncContext } from './context';

/** How long 'typing...' stays without news from the other member (a lost user_stopped_typing). */
export const TYPING_INDICATOR_TIMEOUT_MS = 5000;

/**
 * Typing, both ways: the member's own stretch (one `typing`, then `stop_typing` after
 * TYPING_STOP_AFTER_MS without input, on send or on leaving), and the other member's indicator
 * (cleared by user_stopped_typing, their message, or after TYPING_INDICATOR_TIMEOUT_MS).
 */
export class Typing {
  /** Own typing stretch per conversation: stop_typing fires when its timer ends. */
  private readonly own = new Map<string, ReturnType<typeof setTimeout>>();
  /** The other member typing, per conversation. */
  private readonly other = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly ctx: SyncContext) {}

  typing(userId: string): void {
    const timer = this.own.get(userId);
    if (timer) clearTimeout(timer);
    else this.emitQuietly('typing', userId);
    this.own.set(
      userId,
      setTimeout(() => this.endOwn(userId, true), TYPING_STOP_AFTER_MS),
    );
  }

  endOwn(userId: string, emit: boolean): void {
    const timer = this.own.get(userId);
    if (!timer) return;
    clearTimeout(timer);
    this.own.delete(userId);
    if (emit) this.emitQuietly('stop_typing', userId);
  }

  isOtherTyping(userId: string): boolean {
    return this.other.has(userId);
  }

  setOther(userId: string, typing: boolean): void {
    const timer = this.other.get(userId);
    const was = timer !== undefined;
    if (timer) clearTimeout(timer);
    if (typing)
      this.other.set(
        userId,
        setTimeout(() => this.setOther(userId, false), TYPING_INDICATOR_TIMEOUT_MS),
      );
    else this.other.delete(userId);
    if (was !== typing) this.ctx.changed();
  }

  stopTimers(): void {
    for (const timer of [...this.own.values(), ...this.other.values()]) clearTimeout(timer);
    this.own.clear();
    this.other.clear();
  }

  private emitQuietly(event: 'typing' | 'stop_typing', recipientId: string): void {
    if (!this.ctx.isConnected()) return;
    this.ctx.socket.request(event, { recipientId }).catch(() => undefined);
  }
}

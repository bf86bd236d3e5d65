import { SOCKET_RECONNECTION_DELAY, SOCKET_RECONNECTION_DELAY_MAX } from '@mate/contracts';
import type { ChatApi } from '../chat';
import type { SocketClient } from '../socket';
import type { ChatSyncStats } from './types';

/** What the engine's parts share: its connections, who is signed in, its counters and its state. */
export interface SyncContext {
  readonly socket: SocketClient;
  readonly api: ChatApi;
  readonly selfId: string;
  readonly counters: ChatSyncStats;
  /** Random source of the retry jitter. */
  readonly random: () => number;
  /** Between start() and stop(). */
  isStarted(): boolean;
  isConnected(): boolean;
  /** Tells subscribers, once per microtask however many parts changed. */
  changed(): void;
}

/** Spec 000 §7's reconnection delays (1 s doubling to 5 s) for the `attempt`-th retry, jittered. */
export function backoffDelay(attempt: number, random: () => number): number {
  const base = Math.min(SOCKET_RECONNECTION_DELAY * 2 ** attempt, SOCKET_RECONNECTION_DELAY_MAX);
  return base * (0.5 + random() * 0.5);
}

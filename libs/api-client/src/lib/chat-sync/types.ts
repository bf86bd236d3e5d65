import type { ChatMessageDto } from '@mate/contracts';
import type { ChatApi } from '../chat';
import type { SocketClient } from '../socket';

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

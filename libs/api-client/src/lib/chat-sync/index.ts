export { ChatSync } from './chat-sync';
export { TYPING_INDICATOR_TIMEOUT_MS } from './typing';
export type {
  ChatEntry,
  ChatEntryStatus,
  ChatSyncOptions,
  ChatSyncStats,
  PendingMessage,
  PendingStore,
} from './types';

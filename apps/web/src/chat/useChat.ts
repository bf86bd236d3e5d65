import type { ChatEntry, ChatSync } from '@mate/api-client';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useChatSync } from './ChatSyncContext';

const NO_ENTRIES: readonly ChatEntry[] = Object.freeze([]);
const noSubscription = () => () => undefined;

/** Reads one value of the chat engine and renders again when it changes (useSyncExternalStore). */
function useChatValue<T>(read: (sync: ChatSync) => T, fallback: T): T {
  const sync = useChatSync();
  const subscribe = useCallback(
    (listener: () => void) => sync?.subscribe(listener) ?? (() => undefined),
    [sync],
  );
  return useSyncExternalStore(sync ? subscribe : noSubscription, () => (sync ? read(sync) : fallback));
}

/** Whether the realtime channel is up (the chat's 'Socket not connected' notice when not). */
export function useChatConnected(): boolean {
  return useChatValue((sync) => sync.connected, false);
}

/** How long a screen gives the channel to come up before it says it is not connected. */
export const FIRST_CONNECT_GRACE_MS = 2000;

/**
 * Whether to tell the member the channel is down: at once when a connection was lost, but not
 * during the first moments of a page, while the socket is still connecting.
 */
export function useShowOffline(): boolean {
  const connected = useChatConnected();
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (connected) {
      setSettled(true);
      return;
    }
    const timer = setTimeout(() => setSettled(true), FIRST_CONNECT_GRACE_MS);
    return () => clearTimeout(timer);
  }, [connected]);
  return !connected && settled;
}

/** Unread messages over all conversations (the navigation's Messages badge). */
export function useUnreadCount(): number {
  return useChatValue((sync) => sync.unreadCount, 0);
}

/** One conversation's messages: stored ones by sequence, then own ones still on their way. */
export function useChatEntries(userId: string): readonly ChatEntry[] {
  return useChatValue((sync) => sync.entries(userId), NO_ENTRIES);
}

/** Whether the other member is typing to us right now. */
export function useIsTyping(userId: string): boolean {
  return useChatValue((sync) => sync.isTyping(userId), false);
}

/** Whether older messages remain to load above the first one shown. */
export function useHasOlder(userId: string): boolean {
  return useChatValue((sync) => sync.hasOlder(userId), false);
}

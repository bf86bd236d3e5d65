/** The storage key of one member's unsent chat messages (per user: two accounts on one browser never mix). */
export const pendingStorageKey = (userId: string) => `mate:chat-pending:${userId}`;

export interface PendingStore<T> {
  load(): T[];
  save(pending: T[]): void;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Where messages written but not yet acknowledged survive a reload or a closed tab (issue 9: a
 * message sent offline goes when the connection returns). Unreadable or foreign content counts as
 * nothing pending; a full or blocked storage keeps the messages in memory only.
 */
export function localPendingStore<T>(userId: string): PendingStore<T> {
  const key = pendingStorageKey(userId);
  return {
    load() {
      try {
        const parsed: unknown = JSON.parse(storage()?.getItem(key) ?? '[]');
        return Array.isArray(parsed) ? (parsed as T[]) : [];
      } catch {
        return [];
      }
    },
    save(pending) {
      try {
        if (pending.length === 0) storage()?.removeItem(key);
        else storage()?.setItem(key, JSON.stringify(pending));
      } catch {
        // Quota or privacy mode: the engine still holds them for this page's life.
      }
    },
  };
}

import { isApiError, type ChatSync } from '@mate/api-client';
import { useCallback, useEffect, useState } from 'react';

export type OpenState = 'loading' | 'ready' | 'error' | 'not-found';

/**
 * Opens the conversation in the chat engine while the screen shows it: its newest messages load
 * and it is marked read (spec 000 §4); closed again when the member leaves. A 404 means it is not
 * a conversation of theirs.
 */
export function useOpenConversation(sync: ChatSync | null, userId: string) {
  const [state, setState] = useState<OpenState>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!sync) return;
    let current = true;
    setState('loading');
    sync.open(userId).then(
      () => current && setState('ready'),
      (error: unknown) =>
        current && setState(isApiError(error) && error.status === 404 ? 'not-found' : 'error'),
    );
    return () => {
      current = false;
      sync.close(userId);
    };
  }, [sync, userId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}

import { isApiError, type ChatSync } from '@mate/api-client';
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../../api/ApiContext';

export type OpenState = 'loading' | 'ready' | 'error' | 'not-found';

/**
 * A match made a moment ago reaches chat-service through the match.created event, a little after
 * the match itself (the outbox relay's poll): 'Send Message' on 'It's a Match!' can be quicker.
 * A 404 for a member who is a match is tried again for this long before the screen gives up.
 */
export const NEW_MATCH_RETRY_MS = 1000;
export const NEW_MATCH_RETRIES = 8;

/**
 * Opens the conversation in the chat engine while the screen shows it: its newest messages load
 * and it is marked read (spec 000 §4); closed again when the member leaves. A 404 means it is not
 * a conversation of theirs, unless they are a match whose conversation is still being opened.
 */
export function useOpenConversation(sync: ChatSync | null, userId: string) {
  const api = useApi();
  const [state, setState] = useState<OpenState>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!sync) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isMatch: Promise<boolean> | null = null;
    setState('loading');

    const tryOpen = (retriesLeft: number) => {
      sync.open(userId).then(
        () => {
          if (current) setState('ready');
        },
        async (error: unknown) => {
          if (!current) return;
          if (!isApiError(error) || error.status !== 404) return setState('error');
          isMatch ??= api.matching.getMyMatches().then(
            (matches) => matches.some((match) => match.userId === userId),
            () => false,
          );
          const waitForIt = retriesLeft > 0 && (await isMatch);
          if (!current) return;
          if (!waitForIt) return setState('not-found');
          timer = setTimeout(() => tryOpen(retriesLeft - 1), NEW_MATCH_RETRY_MS);
        },
      );
    };
    tryOpen(NEW_MATCH_RETRIES);

    return () => {
      current = false;
      clearTimeout(timer);
      sync.close(userId);
    };
  }, [sync, userId, attempt, api]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}

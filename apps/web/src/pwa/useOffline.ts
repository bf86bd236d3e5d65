import { isApiError } from '@mate/api-client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** A call that never got an answer (ApiError status 0): no network, or the gateway out of reach. */
function unanswered(error: unknown): boolean {
  return isApiError(error) && error.status === 0;
}

/**
 * Whether the app is offline: the browser says so (`navigator.onLine`, the `online`/`offline`
 * events), or the app's own calls through React Query come back without an answer, which the
 * browser does not notice on a network that is up but goes nowhere. Any answered call, or the
 * browser's `online`, ends it.
 */
export function useOffline(): boolean {
  const queryClient = useQueryClient();
  const [offline, setOffline] = useState(() => typeof navigator !== 'undefined' && navigator.onLine === false);

  useEffect(() => {
    const goOffline = () => setOffline(true);
    const goOnline = () => setOffline(false);
    const fromCall = (action: { type: string; error?: unknown }) => {
      if (action.type === 'error' && unanswered(action.error)) goOffline();
      else if (action.type === 'success') goOnline();
    };
    window.addEventListener('offline', goOffline);
    window.addEventListener('online', goOnline);
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated') fromCall(event.action);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated') fromCall(event.action);
    });
    if (navigator.onLine === false) goOffline();
    return () => {
      window.removeEventListener('offline', goOffline);
      window.removeEventListener('online', goOnline);
      stopQueries();
      stopMutations();
    };
  }, [queryClient]);

  return offline;
}

import type { MateApi } from '@mate/api-client';
import { createContext, useContext, type ReactNode } from 'react';

const ApiContext = createContext<MateApi | null>(null);

/** Hands the typed client to the data hooks; tests hand in a fake. */
export function ApiProvider({ client, children }: { client: MateApi; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): MateApi {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi must be used inside <ApiProvider>');
  return client;
}

/**
 * A list read by several parts of one screen that mount a frame apart (the home's stats and its
 * deferred sections, issue 26) is fresh for this long: the later part takes the answer the first
 * one got instead of asking again. What changes it meanwhile arrives live (the socket) or through
 * an invalidation, as before. It lives here, beside `useApi`: a module of its own became a chunk
 * of its own, one more request on every first visit.
 */
export const SHARED_LIST_STALE_MS = 5_000;

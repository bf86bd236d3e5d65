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

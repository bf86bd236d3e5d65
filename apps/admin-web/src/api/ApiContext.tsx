import type { MateAdminApi } from '@mate/api-client';
import { createContext, useContext, type ReactNode } from 'react';

const ApiContext = createContext<MateAdminApi | null>(null);

/** Hands the typed admin client to the data hooks; tests hand in a fake. */
export function ApiProvider({ client, children }: { client: MateAdminApi; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): MateAdminApi {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi must be used inside <ApiProvider>');
  return client;
}

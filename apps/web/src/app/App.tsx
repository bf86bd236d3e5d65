import type { MateApi } from '@mate/api-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { ApiProvider } from '../api/ApiContext';
import { AuthProvider } from '../auth/AuthContext';
import { AppRoutes } from './AppRoutes';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

/** Everything a screen needs around it; tests use it with a MemoryRouter and a fake client. */
export function AppProviders({ api, queryClient, children }: { api: MateApi; queryClient: QueryClient; children: ReactNode }) {
  return (
    <ApiProvider client={api}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}

export function App({ api }: { api: MateApi }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders api={api} queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}

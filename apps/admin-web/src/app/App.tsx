import type { MateAdminApi } from '@mate/api-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { ApiProvider } from '../api/ApiContext';
import { AuthProvider } from '../auth/AuthContext';
import { AdminEnvironmentProvider, type AdminEnvironment } from '../browser/AdminBrowser';
import { AppRoutes } from './AppRoutes';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

interface ProvidersProps {
  api: MateAdminApi;
  environment: AdminEnvironment;
  queryClient: QueryClient;
  children: ReactNode;
}

/** Everything a screen needs around it; tests use it with a MemoryRouter, a fake client and a fake browser. */
export function AppProviders({ api, environment, queryClient, children }: ProvidersProps) {
  return (
    <AdminEnvironmentProvider value={environment}>
      <ApiProvider client={api}>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>{children}</AuthProvider>
        </QueryClientProvider>
      </ApiProvider>
    </AdminEnvironmentProvider>
  );
}

export function App({ api, environment }: { api: MateAdminApi; environment: AdminEnvironment }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders api={api} environment={environment} queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}

import type { MateApi } from '@mate/api-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { ApiProvider } from '../api/ApiContext';
import { AuthProvider } from '../auth/AuthContext';
import { CallProvider } from '../call/CallProvider';
import type { CallDevices } from '../call/call-types';
import { noCallDevices } from '../call/no-call-devices';
import { ChatSyncProvider } from '../chat/ChatSyncContext';
import { RealtimeProvider, type SocketClientFactory } from '../realtime/RealtimeContext';
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
  api: MateApi;
  queryClient: QueryClient;
  /** The realtime channel's client factory; none in tests that do not need it. */
  realtime?: SocketClientFactory;
  /** Camera, microphone, peer connection and recorder for calls; without them calls fail to start. */
  calls?: CallDevices;
  children: ReactNode;
}

/** Everything a screen needs around it; tests use it with a MemoryRouter and a fake client. */
export function AppProviders({ api, queryClient, realtime, calls = noCallDevices, children }: ProvidersProps) {
  return (
    <ApiProvider client={api}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RealtimeProvider createClient={realtime}>
            <ChatSyncProvider>
              <CallProvider devices={calls}>{children}</CallProvider>
            </ChatSyncProvider>
          </RealtimeProvider>
        </AuthProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}

export function App({
  api,
  realtime,
  calls,
}: {
  api: MateApi;
  realtime?: SocketClientFactory;
  calls?: CallDevices;
}) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders api={api} queryClient={queryClient} realtime={realtime} calls={calls}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}

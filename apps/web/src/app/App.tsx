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
import { noPush } from '../push/no-push';
import type { PushBrowser } from '../push/push-browser';
import { PushProvider } from '../push/PushContext';
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
  /** Service worker, PushManager and Notification; without them notifications read as unsupported. */
  push?: PushBrowser;
  children: ReactNode;
}

/** Everything a screen needs around it; tests use it with a MemoryRouter and a fake client. */
export function AppProviders({ api, queryClient, realtime, calls = noCallDevices, push = noPush, children }: ProvidersProps) {
  return (
    <ApiProvider client={api}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <PushProvider browser={push}>
            <RealtimeProvider createClient={realtime}>
              <ChatSyncProvider>
                <CallProvider devices={calls}>{children}</CallProvider>
              </ChatSyncProvider>
            </RealtimeProvider>
          </PushProvider>
        </AuthProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}

export function App({
  api,
  realtime,
  calls,
  push,
}: {
  api: MateApi;
  realtime?: SocketClientFactory;
  calls?: CallDevices;
  push?: PushBrowser;
}) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders api={api} queryClient={queryClient} realtime={realtime} calls={calls} push={push}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}

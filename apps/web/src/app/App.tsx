import type { MateApi } from '@mate/api-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { BrowserRouter, MemoryRouter } from 'react-router-dom';
import { ApiProvider } from '../api/ApiContext';
import { AuthProvider, type StartupRequests } from '../auth/AuthContext';
import { CallProvider } from '../call/CallProvider';
import type { CallDevices } from '../call/call-types';
import { noCallDevices } from '../call/no-call-devices';
import { ChatSyncProvider } from '../chat/ChatSyncContext';
import { noPush } from '../push/no-push';
import type { PushBrowser } from '../push/push-browser';
import { PushProvider } from '../push/PushContext';
import { AppStatusBar } from '../pwa/AppStatusBar';
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
  /** The start-up check's calls, already on their way (main.tsx); else the provider makes them. */
  startup?: StartupRequests | null;
  children: ReactNode;
}

/** Everything a screen needs around it; tests use it with a MemoryRouter and a fake client. */
export function AppProviders({ api, queryClient, realtime, calls = noCallDevices, push = noPush, startup, children }: ProvidersProps) {
  return (
    <ApiProvider client={api}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider startup={startup}>
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
  at,
  startup,
}: {
  api: MateApi;
  realtime?: SocketClientFactory;
  calls?: CallDevices;
  push?: PushBrowser;
  /** The app drawn at this path, outside a browser (the build's prerender); else the browser's address. */
  at?: string;
  startup?: StartupRequests | null;
}) {
  const [queryClient] = useState(createQueryClient);
  const routes = <AppRoutes />;
  return (
    <AppProviders api={api} queryClient={queryClient} realtime={realtime} calls={calls} push={push} startup={startup}>
      <AppStatusBar />
      {at === undefined ? <BrowserRouter>{routes}</BrowserRouter> : <MemoryRouter initialEntries={[at]}>{routes}</MemoryRouter>}
    </AppProviders>
  );
}

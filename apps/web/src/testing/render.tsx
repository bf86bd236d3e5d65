import { render } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { MateApi } from '@mate/api-client';
import { AppProviders, createQueryClient } from '../app/App';
import { AppRoutes, preloadEveryScreen } from '../app/AppRoutes';
import { beforeAll } from 'vitest';
import type { PushBrowser } from '../push/push-browser';
import type { SocketClientFactory } from '../realtime/RealtimeContext';
import type { FakeApi } from './fake-api';

// Screens load on demand (issue 26); a test file's first findBy should wait for the screen, not for
// Vite compiling it on a busy machine. Once per module graph (shared by the files of a worker).
beforeAll(() => preloadEveryScreen(), 60_000);

/** Shows the current path, so tests can assert where a redirect went; `visited` collects every path shown. */
export function LocationProbe({ visited }: { visited?: string[] }) {
  const location = useLocation();
  useEffect(() => {
    visited?.push(location.pathname + location.search);
  }, [visited, location]);
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export interface RenderOptions {
  route?: string;
  /** Earlier entries of the in-app history, before `route` (for 'back one step'). */
  history?: string[];
  children?: ReactNode;
  /** The realtime channel's client factory, for screens that listen to it. */
  realtime?: SocketClientFactory;
  /** The browser's push side (a FakePush); none: notifications read as unsupported. */
  push?: PushBrowser;
}

export function renderWithApp(
  api: FakeApi,
  { route = '/', history = [], children, realtime, push }: RenderOptions = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  /** Every path the app has shown, in order (redirects included). */
  const visited: string[] = [];
  const result = render(
    <AppProviders api={api as unknown as MateApi} queryClient={queryClient} realtime={realtime} push={push}>
      <MemoryRouter initialEntries={[...history, route]} initialIndex={history.length}>
        {children ?? <AppRoutes />}
        <LocationProbe visited={visited} />
      </MemoryRouter>
    </AppProviders>,
  );
  return Object.assign(result, { visited });
}

import type { MateAdminApi } from '@mate/api-client';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders, createQueryClient } from '../app/App';
import { AppRoutes, preloadEveryScreen } from '../app/AppRoutes';
import { beforeAll } from 'vitest';
import type { FakeAdminApi } from './fake-api';
import { createFakeBrowser, type FakeBrowser } from './fake-browser';

// Screens load on demand (issue 26); a test file's first findBy should wait for the screen, not for
// Vite compiling it on a busy machine. Once per module graph (shared by the files of a worker).
beforeAll(() => preloadEveryScreen(), 60_000);

export const MEMBER_WEB_URL = 'http://member.test';

export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function renderAdmin(api: FakeAdminApi, { route = '/admin', browser = createFakeBrowser() }: { route?: string; browser?: FakeBrowser } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } });
  const view = render(
    <AppProviders api={api as unknown as MateAdminApi} environment={{ browser, memberWebUrl: MEMBER_WEB_URL }} queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, browser, queryClient };
}

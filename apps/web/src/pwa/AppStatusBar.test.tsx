import { ApiError } from '@mate/api-client';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APP_STATUS_OPEN_CLASS, AppStatusBar } from './AppStatusBar';
import { createAppServiceWorker, type WorkboxLike } from './sw-registration';

function fakeWorkbox() {
  const listeners = new Map<string, Array<() => void>>();
  const workbox = {
    register: vi.fn(() => Promise.resolve({} as ServiceWorkerRegistration)),
    addEventListener: (type: string, listener: () => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    messageSkipWaiting: vi.fn(),
  } satisfies WorkboxLike;
  const fire = (type: 'waiting' | 'controlling') => act(() => listeners.get(type)?.forEach((listener) => listener()));
  return { workbox, fire };
}

/** A screen's query whose answer the test decides. */
function Screen({ answer }: { answer: () => Promise<string> }) {
  const { data } = useQuery({ queryKey: ['screen'], queryFn: answer, retry: false });
  return <p>{data ?? 'no data'}</p>;
}

function renderBar({ worker = null as ReturnType<typeof createAppServiceWorker> | null, answer = () => Promise.resolve('ok') } = {}) {
  const queryClient = new QueryClient();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AppStatusBar worker={worker} />
      <Screen answer={answer} />
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

// A test that fails halfway must not leave React Query believing the browser is offline.
afterEach(() => {
  window.dispatchEvent(new Event('online'));
});

const offlineBanner = () => screen.queryByText(/You're offline/)?.closest('[role="status"]') ?? null;

describe('AppStatusBar: offline', () => {
  it("says it is offline and what still works while the browser has no network, and goes when it is back", async () => {
    renderBar();
    await screen.findByText('ok');
    expect(offlineBanner()).toBeNull();
    expect(document.body).not.toHaveClass(APP_STATUS_OPEN_CLASS);

    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    const banner = offlineBanner();
    expect(banner).toHaveTextContent("You're offline. Messages you write will be sent when you're back online.");
    expect(document.body).toHaveClass(APP_STATUS_OPEN_CLASS);

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(offlineBanner()).toBeNull();
    expect(document.body).not.toHaveClass(APP_STATUS_OPEN_CLASS);
  });

  it('says it is offline when a call gets no answer, though the browser thinks it is online, until a call is answered', async () => {
    let answer: () => Promise<string> = () => Promise.reject(new ApiError('An error occurred', 0));
    const { queryClient } = renderBar({ answer: () => answer() });
    await waitFor(() => expect(offlineBanner()).not.toBeNull());

    answer = () => Promise.resolve('back');
    await act(() => queryClient.refetchQueries({ queryKey: ['screen'] }));
    await screen.findByText('back');
    expect(offlineBanner()).toBeNull();
  });

  it('is not fooled by a call the server refused: the network is there', async () => {
    renderBar({ answer: () => Promise.reject(new ApiError('Server error', 500)) });
    await waitFor(() => expect(screen.getByText('no data')).toBeInTheDocument());
    // The query has settled as an error; nothing is shown for it.
    expect(offlineBanner()).toBeNull();
  });
});

describe('AppStatusBar: a new version', () => {
  it('shows nothing without a service worker (tests, old browsers)', async () => {
    renderBar();
    await screen.findByText('ok');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('"A new version is available — Reload": Reload lets the new worker take over, then reloads the page', async () => {
    const { workbox, fire } = fakeWorkbox();
    const reload = vi.fn();
    renderBar({ worker: createAppServiceWorker(workbox, reload) });
    await screen.findByText('ok');
    expect(screen.queryByText('A new version is available')).toBeNull();

    fire('waiting');
    const banner = screen.getByRole('status');
    expect(banner).toHaveTextContent('A new version is available');
    expect(document.body).toHaveClass(APP_STATUS_OPEN_CLASS);

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeDisabled();
    expect(reload).not.toHaveBeenCalled();

    fire('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

import type { MateApi } from '@mate/api-client';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router-dom';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/App';
import { createFakeApi, signedInApi, type FakeApi } from '../testing/fake-api';
import { aPushSubscription, createFakePush, type FakePushOptions } from '../testing/fake-push';
import { renderWithApp } from '../testing/render';
import { NOTIFICATION_PROMPT_DELAY_MS } from '@mate/contracts';
import { CallContext, useCall, type CallPhase } from '../call/call-types';
import {
  matchQuietRemaining,
  NotificationPrompt,
  promptPlacement,
  PROMPT_DISMISSED_KEY,
  PROMPT_OPEN_BODY_CLASS,
  PROMPT_QUIET_AFTER_MATCH_MS,
} from './NotificationPrompt';
import { usePush } from './PushContext';

const prompt = () => screen.queryByRole('region', { name: 'Enable Notifications' });

/** Fake timers move the 3 s; promises (the push state lookup) still settle between the steps. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

describe('NotificationPrompt', () => {
  let api: FakeApi;

  /** The prompt alone, in the app's providers (signed out: nothing else runs timers). */
  function mount(options: FakePushOptions = {}, route = '/dashboard', callPhase: CallPhase = 'idle') {
    const push = createFakePush(options);
    const queryClient = createQueryClient();
    let navigate: NavigateFunction = () => undefined;
    let recordMatch = () => undefined as void;
    function Handles() {
      navigate = useNavigate();
      recordMatch = usePush().recordMatch;
      return null;
    }
    function WithCallPhase({ children }: { children: ReactNode }) {
      const call = useCall();
      return <CallContext.Provider value={{ ...call, phase: callPhase }}>{children}</CallContext.Provider>;
    }
    const view = render(
      <AppProviders api={api as unknown as MateApi} queryClient={queryClient} push={push.browser}>
        <MemoryRouter initialEntries={[route]}>
          <Handles />
          <WithCallPhase>
            <NotificationPrompt />
          </WithCallPhase>
        </MemoryRouter>
      </AppProviders>,
    );
    return {
      push,
      view,
      navigate: (to: string) => act(() => navigate(to)),
      recordMatch: () => act(() => recordMatch()),
    };
  }

  it.each(['/onboarding', '/call/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c'])('waits while the member is on %s and opens once they leave it', async (route) => {
    const { navigate } = mount({}, route);
    await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
    expect(prompt()).not.toBeInTheDocument();
    await navigate('/dashboard');
    await advance(0);
    expect(prompt()).toBeInTheDocument();
  });

  beforeEach(() => {
    api = createFakeApi();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('appears 3 s after load when the permission is default, there is no subscription and it was never dismissed', async () => {
    mount();
    await advance(NOTIFICATION_PROMPT_DELAY_MS - 1);
    expect(prompt()).not.toBeInTheDocument();
    await advance(1);

    const card = prompt();
    expect(card).toBeInTheDocument();
    expect(card).toHaveTextContent('Stay updated on new matches and messages');
    expect(screen.getByRole('heading', { name: 'Enable Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enable Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Maybe Later' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dismiss notification prompt' })).toBeInTheDocument();
  });

  it('keeps away for a minute after a match, then opens', async () => {
    const { recordMatch } = mount({}, '/matches');
    await recordMatch();
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    expect(prompt()).not.toBeInTheDocument();
    await advance(PROMPT_QUIET_AFTER_MATCH_MS - NOTIFICATION_PROMPT_DELAY_MS - 1);
    expect(prompt()).not.toBeInTheDocument();
    await advance(1);
    expect(prompt()).toBeInTheDocument();
  });

  it('goes away when a match arrives while it is open, and comes back a minute later', async () => {
    const { recordMatch, navigate } = mount({}, '/dashboard');
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    await navigate('/discover');
    expect(prompt()).toBeInTheDocument();
    await recordMatch();
    // Send Message on 'It's a Match!': the chat opens with its composer free.
    await navigate('/chat/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c');
    await advance(PROMPT_QUIET_AFTER_MATCH_MS - 1);
    expect(prompt()).not.toBeInTheDocument();
    await advance(1);
    expect(prompt()).toBeInTheDocument();
  });

  it.each<CallPhase>(['incoming', 'calling', 'in-call'])('keeps away while a call is %s', async (phase) => {
    mount({}, '/dashboard', phase);
    await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
    expect(prompt()).not.toBeInTheDocument();
  });

  it('on a chat it floats at the top (notification-prompt--top) and leaves the page its length', async () => {
    mount({}, '/chat/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c');
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    expect(prompt()).toHaveClass('notification-prompt--top');
    expect(document.body).not.toHaveClass(PROMPT_OPEN_BODY_CLASS);
  });

  it('does not open on Discover (it would push the deck down under the thumb), but on the next screen', async () => {
    const { navigate } = mount({}, '/discover');
    await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
    expect(prompt()).not.toBeInTheDocument();
    await navigate('/matches');
    expect(prompt()).toHaveClass('notification-prompt--bottom');
  });

  it('open when the member comes to Discover, it keeps a place of its own above the deck (notification-prompt--inline)', async () => {
    const { navigate } = mount({}, '/dashboard');
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    expect(prompt()).toHaveClass('notification-prompt--bottom');
    await navigate('/discover');
    expect(prompt()).toHaveClass('notification-prompt--inline');
    expect(document.body).not.toHaveClass(PROMPT_OPEN_BODY_CLASS);
  });

  it('gives the page room at its end while open, so a form’s last button can scroll clear of the card', async () => {
    mount();
    expect(document.body).not.toHaveClass(PROMPT_OPEN_BODY_CLASS);
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    expect(document.body).toHaveClass(PROMPT_OPEN_BODY_CLASS);
    await act(async () => screen.getByRole('button', { name: 'Maybe Later' }).click());
    expect(prompt()).not.toBeInTheDocument();
    expect(document.body).not.toHaveClass(PROMPT_OPEN_BODY_CLASS);
  });

  it.each<[string, FakePushOptions]>([
    ['the permission is granted', { permission: 'granted' }],
    ['the permission is denied', { permission: 'denied' }],
    ['this browser is already subscribed', { subscription: aPushSubscription() }],
    ['the browser has no push', { supported: false }],
  ])('does not appear when %s', async (_case, options) => {
    mount(options);
    await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
    expect(prompt()).not.toBeInTheDocument();
  });

  it('waits while the member types in a field of the page (the card would sit over it on a phone), and opens once they leave it', async () => {
    const field = document.createElement('input');
    field.setAttribute('aria-label', 'Location');
    document.body.append(field);
    try {
      mount({}, '/profile');
      act(() => field.focus());
      await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
      expect(prompt()).not.toBeInTheDocument();
      act(() => field.blur());
      await advance(0);
      expect(prompt()).toBeInTheDocument();
      // Back in the field: the card steps aside again, and nothing was dismissed.
      act(() => field.focus());
      expect(prompt()).not.toBeInTheDocument();
      act(() => field.blur());
      expect(prompt()).toBeInTheDocument();
    } finally {
      field.remove();
    }
  });

  it("steps aside while a menu of the page has the focus (a chat's safety menu drops down where it floats), and comes back after", async () => {
    const menu = document.createElement('div');
    menu.setAttribute('role', 'menu');
    const block = document.createElement('button');
    block.setAttribute('role', 'menuitem');
    block.textContent = 'Block';
    menu.append(block);
    document.body.append(menu);
    try {
      mount({}, '/chat/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c');
      await advance(NOTIFICATION_PROMPT_DELAY_MS);
      expect(prompt()).toBeInTheDocument();
      act(() => block.focus());
      expect(prompt()).not.toBeInTheDocument();
      act(() => block.blur());
      expect(prompt()).toBeInTheDocument();
    } finally {
      menu.remove();
    }
  });

  it('stays at the top of a chat while the member types in the composer', async () => {
    const composer = document.createElement('textarea');
    document.body.append(composer);
    try {
      mount({}, '/chat/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c');
      act(() => composer.focus());
      await advance(NOTIFICATION_PROMPT_DELAY_MS);
      expect(prompt()).toBeInTheDocument();
    } finally {
      composer.remove();
    }
  });

  it('does not appear when it was dismissed before', async () => {
    window.localStorage.setItem(PROMPT_DISMISSED_KEY, 'true');
    mount();
    await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
    expect(prompt()).not.toBeInTheDocument();
  });

  it.each(['Maybe Later', 'Dismiss notification prompt'])('%s hides it and it stays hidden after a reload', async (name) => {
    const first = mount();
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    act(() => screen.getByRole('button', { name }).click());
    expect(prompt()).not.toBeInTheDocument();
    expect(window.localStorage.getItem(PROMPT_DISMISSED_KEY)).toBe('true');
    expect(first.push.browser.requestPermission).not.toHaveBeenCalled();

    first.view.unmount();
    mount();
    await advance(NOTIFICATION_PROMPT_DELAY_MS * 3);
    expect(prompt()).not.toBeInTheDocument();
  });

  it('Enable Notifications asks for permission, subscribes and goes away', async () => {
    api.notifications.getVapidPublicKey.mockResolvedValue('BAECAwQ');
    api.notifications.subscribe.mockResolvedValue({ message: 'Subscribed' });
    const { push } = mount();
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    act(() => screen.getByRole('button', { name: 'Enable Notifications' }).click());
    await advance(0);

    expect(prompt()).not.toBeInTheDocument();
    expect(push.browser.requestPermission).toHaveBeenCalled();
    expect(push.browser.subscribe).toHaveBeenCalled();
    expect(api.notifications.subscribe).toHaveBeenCalledWith(expect.objectContaining({ endpoint: push.state.subscription?.endpoint }));
    // Not a dismissal: nothing remembered.
    expect(window.localStorage.getItem(PROMPT_DISMISSED_KEY)).toBeNull();
  });

  it('goes away when the member refuses the permission', async () => {
    const { push } = mount({ answer: 'denied' });
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    act(() => screen.getByRole('button', { name: 'Enable Notifications' }).click());
    await advance(0);
    expect(prompt()).not.toBeInTheDocument();
    expect(push.browser.subscribe).not.toHaveBeenCalled();
  });

  it("stays open with 'Failed to get VAPID public key' when the key cannot be had", async () => {
    api.notifications.getVapidPublicKey.mockRejectedValue(new Error('Failed to get VAPID public key'));
    mount();
    await advance(NOTIFICATION_PROMPT_DELAY_MS);
    act(() => screen.getByRole('button', { name: 'Enable Notifications' }).click());
    await advance(0);
    expect(prompt()).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to get VAPID public key');
  });
});

describe('promptPlacement', () => {
  it.each([
    ['/onboarding', 'held'],
    ['/call/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c', 'held'],
    ['/discover', 'inline'],
    ['/chat/9b2f4c1e-8a7d-4f3b-9c2a-1d5e6f7a8b9c', 'top'],
    ['/dashboard', 'bottom'],
    ['/matches', 'bottom'],
    ['/settings/privacy', 'bottom'],
    ['/calls', 'bottom'],
    ['/discovery-tips', 'bottom'],
  ])('%s → %s', (route, placement) => {
    expect(promptPlacement(route)).toBe(placement);
  });
});

describe('matchQuietRemaining', () => {
  it('is the rest of the minute after the last match, and 0 without one or once it is over', () => {
    expect(matchQuietRemaining(null, 5_000)).toBe(0);
    expect(matchQuietRemaining(10_000, 10_000)).toBe(PROMPT_QUIET_AFTER_MATCH_MS);
    expect(matchQuietRemaining(10_000, 10_000 + PROMPT_QUIET_AFTER_MATCH_MS - 1)).toBe(1);
    expect(matchQuietRemaining(10_000, 10_000 + PROMPT_QUIET_AFTER_MATCH_MS)).toBe(0);
    expect(matchQuietRemaining(10_000, 10_000 + 2 * PROMPT_QUIET_AFTER_MATCH_MS)).toBe(0);
  });
});

describe('NotificationPrompt on the signed-in screens', () => {
  it('shows over a signed-in screen (real timers: 3 s)', async () => {
    const api = signedInApi();
    const push = createFakePush();
    renderWithApp(api, { route: '/settings/privacy', push: push.browser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy & Data' })).toBeInTheDocument();
    expect(prompt()).not.toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Enable Notifications' }, { timeout: 6000 })).toBeInTheDocument();
  });
});

import { vi } from 'vitest';
import type { PushBrowser, PushSubscriptionHandle } from '../push/push-browser';

/** A push subscription as a browser's push service would hand it out. */
export function aPushSubscription(endpoint = 'https://push.example.org/send/device-1'): PushSubscriptionHandle & {
  unsubscribe: ReturnType<typeof vi.fn>;
} {
  return {
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BPublicKeyOfTheDevice', auth: 'authSecret' } }),
    unsubscribe: vi.fn(() => Promise.resolve(true)),
  };
}

export interface FakePushOptions {
  supported?: boolean;
  permission?: NotificationPermission;
  /** What the member answers when asked; 'granted' unless a test says otherwise. */
  answer?: NotificationPermission;
  /** A subscription this browser already holds. */
  subscription?: PushSubscriptionHandle | null;
}

/**
 * A browser for the push tests (the outside boundary: the browser's push service): permission,
 * one subscription, and `navigate(path)` to act as /sw.js asking the tab to show a screen.
 */
export function createFakePush({
  supported = true,
  permission = 'default',
  answer = 'granted',
  subscription = null,
}: FakePushOptions = {}) {
  const state = { permission, subscription };
  const forgetOnUnsubscribe = (held: PushSubscriptionHandle & { unsubscribe: ReturnType<typeof vi.fn> }) =>
    held.unsubscribe.mockImplementation(async () => {
      if (state.subscription === held) state.subscription = null;
      return true;
    });
  if (subscription && vi.isMockFunction(subscription.unsubscribe)) {
    forgetOnUnsubscribe(subscription as PushSubscriptionHandle & { unsubscribe: ReturnType<typeof vi.fn> });
  }
  const navigateListeners = new Set<(path: string) => void>();
  const browser = {
    supported,
    permission: () => state.permission,
    requestPermission: vi.fn(async () => {
      // As a browser does: only a default permission asks; a decided one is answered as it is.
      if (state.permission === 'default') state.permission = answer;
      return state.permission;
    }),
    register: vi.fn(() => Promise.resolve()),
    getSubscription: vi.fn(async () => state.subscription),
    subscribe: vi.fn(async (_key: Uint8Array<ArrayBuffer>) => {
      const created = aPushSubscription();
      forgetOnUnsubscribe(created);
      state.subscription = created;
      return created;
    }),
    onNavigate: (listener: (path: string) => void) => {
      navigateListeners.add(listener);
      return () => navigateListeners.delete(listener);
    },
  } satisfies PushBrowser;
  return {
    browser,
    state,
    /** What /sw.js does after a notification click while a tab is open. */
    navigate: (path: string) => navigateListeners.forEach((listener) => listener(path)),
  };
}

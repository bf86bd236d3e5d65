import { displayMessage } from '@mate/api-client';
import type { PushSubscriptionDto } from '@mate/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../api/ApiContext';
import { useAuth } from '../auth/AuthContext';
import { applicationServerKeyFrom, type PushBrowser, type PushSubscriptionHandle } from './push-browser';

/** Spec 001 §8, and the app's own words for a browser that refuses to subscribe. */
export const PushMessages = {
  unsupported: 'This browser does not support notifications',
  vapidKeyFailed: 'Failed to get VAPID public key',
  enableFailed: 'Failed to enable notifications',
  disableFailed: 'Failed to disable notifications',
} as const;

/** Spec 001 §4 notification state. */
export interface PushState {
  supported: boolean;
  permission: NotificationPermission;
  subscribed: boolean;
  /** The browser's subscription has been looked up (the prompt waits for it). */
  checked: boolean;
}

export interface PushContextValue extends PushState {
  /**
   * Asks for permission (spec 001 §5: notifications need support and granted permission), then
   * subscribes with the server's VAPID key and hands the subscription to the server. Resolves
   * without subscribing when the member refuses; rejects with the words to show otherwise.
   */
  enable(): Promise<void>;
  /** Tells the server to forget this device, then drops the browser's subscription. */
  disable(): Promise<void>;
  /** Listens for `/sw.js` asking this tab to show a screen; returns the unsubscribe. */
  onNavigate: PushBrowser['onNavigate'];
  /** When this tab last learnt of a match (ms, from `now`); null before any. */
  lastMatchAt: number | null;
  /** The match popup calls it for every match it hears of (a like that matched, `new_match`). */
  recordMatch(): void;
  /** The clock the prompt's timing rules read (injected in tests). */
  now(): number;
}

const PushContext = createContext<PushContextValue | null>(null);

/** What the server stores: the browser's JSON, or null when it lacks the keys a push needs. */
function subscriptionDto(subscription: PushSubscriptionHandle): PushSubscriptionDto | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.['p256dh'];
  const auth = json.keys?.['auth'];
  if (!json.endpoint || !p256dh || !auth) return null;
  return { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: { p256dh, auth } };
}

/**
 * This browser's push state for the signed-in member (spec 001 §2 prompt and settings), over an
 * injected PushBrowser. Registers /sw.js on start. A device that is already subscribed when a
 * member signs in is handed to the server again (it now belongs to them); on sign-out the
 * browser's subscription is dropped, so the next person at this browser gets nobody's pushes.
 */
export function PushProvider({
  browser,
  now = Date.now,
  children,
}: {
  browser: PushBrowser;
  now?: () => number;
  children: ReactNode;
}) {
  const api = useApi();
  const [lastMatchAt, setLastMatchAt] = useState<number | null>(null);
  const recordMatch = useCallback(() => setLastMatchAt(now()), [now]);
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const [state, setState] = useState<PushState>(() => ({
    supported: browser.supported,
    permission: browser.supported ? browser.permission() : 'default',
    subscribed: false,
    checked: !browser.supported,
  }));
  const signedInAs = useRef<string | null>(null);

  useEffect(() => {
    if (!browser.supported) return;
    let live = true;
    void (async () => {
      let subscribed = false;
      try {
        await browser.register();
        subscribed = (await browser.getSubscription()) !== null;
      } catch (error) {
        console.error('Failed to register the service worker', error);
      }
      if (live) setState((current) => ({ ...current, permission: browser.permission(), subscribed, checked: true }));
    })();
    return () => {
      live = false;
    };
  }, [browser]);

  useEffect(() => {
    if (!browser.supported) return;
    const previous = signedInAs.current;
    signedInAs.current = userId;
    if (previous === userId) return;
    void (async () => {
      try {
        const subscription = await browser.getSubscription();
        if (!subscription) return;
        if (userId === null) {
          await subscription.unsubscribe();
          setState((current) => ({ ...current, subscribed: false }));
          return;
        }
        const dto = subscriptionDto(subscription);
        if (dto && browser.permission() === 'granted') await api.notifications.subscribe(dto);
      } catch {
        // Best effort: the settings screen shows the real state and can enable again.
      }
    })();
  }, [api, browser, userId]);

  const enable = useCallback(async () => {
    if (!browser.supported) throw new Error(PushMessages.unsupported);
    const permission = await browser.requestPermission();
    setState((current) => ({ ...current, permission }));
    if (permission !== 'granted') return;

    let publicKey: string;
    try {
      publicKey = await api.notifications.getVapidPublicKey();
    } catch (error) {
      throw new Error(displayMessage(error, PushMessages.vapidKeyFailed));
    }
    let subscription: PushSubscriptionHandle;
    try {
      subscription = await browser.subscribe(applicationServerKeyFrom(publicKey));
    } catch {
      throw new Error(PushMessages.enableFailed);
    }
    const dto = subscriptionDto(subscription);
    try {
      if (!dto) throw new Error(PushMessages.enableFailed);
      await api.notifications.subscribe(dto);
    } catch (error) {
      // The server does not know this subscription: keep none rather than one nobody sends to.
      await subscription.unsubscribe().catch(() => false);
      throw error instanceof Error ? error : new Error(PushMessages.enableFailed);
    }
    setState((current) => ({ ...current, subscribed: true }));
  }, [api, browser]);

  const disable = useCallback(async () => {
    if (!browser.supported) return;
    const subscription = await browser.getSubscription();
    if (subscription) {
      await api.notifications.unsubscribe(subscription.endpoint);
      await subscription.unsubscribe().catch(() => false);
    }
    setState((current) => ({ ...current, subscribed: false }));
  }, [api, browser]);

  // The member may unblock (or block) notifications in the browser's settings and come back.
  useEffect(() => {
    if (!browser.supported) return;
    const reread = () => setState((current) => ({ ...current, permission: browser.permission() }));
    window.addEventListener('focus', reread);
    return () => window.removeEventListener('focus', reread);
  }, [browser]);

  const value = useMemo<PushContextValue>(
    () => ({ ...state, enable, disable, onNavigate: browser.onNavigate, lastMatchAt, recordMatch, now }),
    [state, enable, disable, browser, lastMatchAt, recordMatch, now],
  );
  return <PushContext.Provider value={value}>{children}</PushContext.Provider>;
}

export function usePush(): PushContextValue {
  const value = useContext(PushContext);
  if (!value) throw new Error('usePush must be used inside <PushProvider>');
  return value;
}

/** Records a match for the prompt's timing; a no-op where no PushProvider is mounted (a screen tested alone). */
export function useRecordMatch(): () => void {
  return useContext(PushContext)?.recordMatch ?? ignoreMatch;
}

const ignoreMatch = () => undefined;

/**
 * A click on a notification while a tab is open: `/sw.js` focuses the tab and asks it to show the
 * screen, which the router does without reloading the app. Rendered inside the router.
 */
export function PushNavigation() {
  const { onNavigate } = usePush();
  const navigate = useNavigate();
  useEffect(() => onNavigate((path) => void navigate(path)), [onNavigate, navigate]);
  return null;
}

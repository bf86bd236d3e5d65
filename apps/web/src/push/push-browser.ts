/**
 * The browser's side of web push, injected so the app and its tests share one contract:
 * `browser-push.ts` in the app (service worker, PushManager, Notification), `no-push.ts` for an
 * app rendered without push, and the fake in `src/testing/fake-push.ts` for tests.
 */

/** One PushSubscription, as much of it as the app uses. */
export interface PushSubscriptionHandle {
  readonly endpoint: string;
  toJSON(): PushSubscriptionJSON;
  unsubscribe(): Promise<boolean>;
}

export interface PushBrowser {
  /** Service workers, PushManager and Notification are all there (spec 001 §5). */
  readonly supported: boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  /** Registers `/sw.js` (spec 001 §7); the other calls wait for it. */
  register(): Promise<void>;
  /** This browser's subscription for the app, or null. */
  getSubscription(): Promise<PushSubscriptionHandle | null>;
  /** A new subscription with our VAPID key (`userVisibleOnly`: every push shows a notification). */
  subscribe(applicationServerKey: Uint8Array<ArrayBuffer>): Promise<PushSubscriptionHandle>;
  /** `/sw.js` asks an open tab to show a screen (a notification was clicked); returns the unsubscribe. */
  onNavigate(listener: (path: string) => void): () => void;
}

/** The message `/sw.js` posts to a tab it focused (keep in step with src/sw/push-notifications.ts). */
export const NAVIGATE_MESSAGE = 'mate:navigate';

/** The VAPID public key (base64url, as the server answers it) as the bytes PushManager takes. */
export function applicationServerKeyFrom(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

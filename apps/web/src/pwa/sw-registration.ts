import { Workbox } from 'workbox-window';

/** Spec 001 §7: the worker is registered from /sw.js (built from src/sw), for the whole app. */
export const SERVICE_WORKER_URL = '/sw.js';

/** As much of workbox-window's `Workbox` as the app uses; tests hand in a fake. */
export interface WorkboxLike {
  register(): Promise<ServiceWorkerRegistration | undefined>;
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
  messageSkipWaiting(): void;
}

/** The app's one service worker registration and its update state. */
export interface AppServiceWorker {
  /** Registers /sw.js once (after the page has loaded); push subscriptions ride on this registration. */
  register(): Promise<ServiceWorkerRegistration>;
  /** A new version of the app is installed and waits for the member's word. */
  updateWaiting(): boolean;
  /** Called when updateWaiting() changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Lets the waiting version take over, then reloads the page once it controls it. */
  applyUpdate(): void;
}

/**
 * Issue 26's update flow: a new build's worker installs beside the running one and waits (it
 * never skips waiting on its own, so a page is never switched to new code under its feet). The
 * page shows "A new version is available"; Reload posts SKIP_WAITING, and the page reloads when
 * the new worker controls it, so index.html and its chunks all come from the same build.
 */
export function createAppServiceWorker(
  workbox: WorkboxLike,
  reload: () => void = () => window.location.reload(),
): AppServiceWorker {
  let waiting = false;
  let updating = false;
  let registration: Promise<ServiceWorkerRegistration> | null = null;
  const listeners = new Set<() => void>();

  workbox.addEventListener('waiting', () => {
    waiting = true;
    for (const listener of listeners) listener();
  });
  workbox.addEventListener('controlling', () => {
    // The first worker of a visit also takes control (clients.claim): that is no reason to reload.
    if (updating) reload();
  });

  return {
    register() {
      registration ??= workbox.register().then((registered) => {
        if (!registered) throw new Error('The service worker was not registered');
        return registered;
      });
      return registration;
    },
    updateWaiting: () => waiting,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    applyUpdate() {
      if (!waiting || updating) return;
      updating = true;
      workbox.messageSkipWaiting();
    },
  };
}

let browserWorker: AppServiceWorker | null | undefined;

/** This browser's app worker, or null where there are no service workers (tests, old browsers). */
export function appServiceWorker(): AppServiceWorker | null {
  if (browserWorker === undefined) {
    browserWorker =
      typeof navigator !== 'undefined' && 'serviceWorker' in navigator
        ? createAppServiceWorker(new Workbox(SERVICE_WORKER_URL, { scope: '/' }))
        : null;
  }
  return browserWorker;
}

/**
 * Called once by main.tsx: every visit registers the worker, signed in or not, so the app opens
 * offline next time and updates are noticed. Workbox waits for the page's load event, so the
 * worker's downloads never compete with the first screen.
 */
export function registerAppServiceWorker(): void {
  appServiceWorker()
    ?.register()
    .catch((error: unknown) => console.error('Failed to register the service worker', error));
}

import { appServiceWorker } from '../pwa/sw-registration';
import { NAVIGATE_MESSAGE, type PushBrowser } from './push-browser';

function isSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The real browser, for main.tsx. */
export function createBrowserPush(): PushBrowser {
  const supported = isSupported();
  let registration: Promise<ServiceWorkerRegistration> | null = null;
  const registered = () => {
    // The app's one registration of /sw.js (src/pwa/sw-registration.ts, made on every load).
    registration ??= appServiceWorker()?.register() ?? Promise.reject(new Error('No service workers here'));
    return registration;
  };

  return {
    supported,
    permission: () => (supported ? Notification.permission : 'denied'),
    requestPermission: () => Notification.requestPermission(),
    async register() {
      if (supported) await registered();
    },
    async getSubscription() {
      return (await registered()).pushManager.getSubscription();
    },
    async subscribe(applicationServerKey) {
      await registered();
      // PushManager.subscribe needs an active worker; `ready` waits for the one just installed.
      const active = await navigator.serviceWorker.ready;
      return active.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
    },
    onNavigate(listener) {
      if (!supported) return () => undefined;
      const onMessage = (event: MessageEvent) => {
        const message = event.data as { type?: unknown; url?: unknown } | null;
        if (message?.type === NAVIGATE_MESSAGE && typeof message.url === 'string') listener(message.url);
      };
      navigator.serviceWorker.addEventListener('message', onMessage);
      return () => navigator.serviceWorker.removeEventListener('message', onMessage);
    },
  };
}

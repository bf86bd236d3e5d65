import type { WindowClient, WorkerScope } from './worker-scope';

/*
 * Spec 001 §7: "A service worker is registered from /sw.js for push". Shows pushes and opens what
 * they point at. (Keep NAVIGATE_MESSAGE in step with src/push/push-browser.ts.)
 */

const FALLBACK_URL = '/dashboard';
const GENERIC_NOTIFICATION = { title: 'Mate', body: 'You have a new notification', tag: 'mate' };
/** Asks an open tab of the app to go somewhere without reloading (src/push/PushContext.tsx listens). */
const NAVIGATE_MESSAGE = 'mate:navigate';

const text = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value.trim() !== '' ? value : fallback;

/**
 * Only a path of this app: '/chat/…' yes; 'https://…', '//evil.example', '/\\evil.example' and
 * anything the URL parser would read as another origin ('/\t/evil.example': tabs and line breaks
 * are dropped while parsing) → /dashboard. Judged by the parsed URL, as the browser will open it.
 */
function safeAppPath(scope: WorkerScope, url: unknown): string {
  if (typeof url !== 'string' || !url.startsWith('/')) return FALLBACK_URL;
  try {
    const origin = scope.location.origin;
    const parsed = new URL(url, origin);
    if (parsed.origin !== origin) return FALLBACK_URL;
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return FALLBACK_URL;
  }
}

/** A PushPayload (libs/contracts notifications.ts) → what showNotification takes; garbage → a generic one. */
function notificationFrom(scope: WorkerScope, payload: unknown) {
  const source = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  return {
    title: text(source['title'], GENERIC_NOTIFICATION.title),
    options: {
      body: text(source['body'], GENERIC_NOTIFICATION.body),
      tag: text(source['tag'], GENERIC_NOTIFICATION.tag),
      renotify: true,
      icon: '/favicon.svg',
      data: { url: safeAppPath(scope, source['url']) },
    },
  };
}

function readPayload(data: { json(): unknown } | null): unknown {
  if (!data) return null;
  try {
    return data.json();
  } catch {
    return null;
  }
}

async function openApp(scope: WorkerScope, path: string): Promise<WindowClient | null> {
  const origin = scope.location.origin;
  const target = new URL(path, origin).href;
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((client) => new URL(client.url).origin === origin);
  const open = ours.find((client) => client.url === target) || ours.find((client) => client.focused) || ours[0];
  if (!open) return scope.clients.openWindow(path);
  const focused = await open.focus();
  if (open.url !== target) (focused || open).postMessage({ type: NAVIGATE_MESSAGE, url: path });
  return focused;
}

/** The push and notificationclick handlers of /sw.js. */
export function handlePushes(scope: WorkerScope): void {
  scope.addEventListener('push', (event) => {
    const { title, options } = notificationFrom(scope, readPayload(event.data));
    event.waitUntil(scope.registration.showNotification(title, options));
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = safeAppPath(scope, event.notification.data && event.notification.data.url);
    event.waitUntil(openApp(scope, path));
  });
}

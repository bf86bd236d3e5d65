/*
 * Mate's service worker (spec 001 §7: "A service worker is registered from /sw.js for push").
 * It only shows pushes and opens what they point at: no fetch handler, no caching.
 * A plain script served from / so its scope is the whole app; src/push/sw.test.ts runs it.
 */
'use strict';

const FALLBACK_URL = '/dashboard';
const GENERIC_NOTIFICATION = { title: 'Mate', body: 'You have a new notification', tag: 'mate' };
/** Asks an open tab of the app to go somewhere without reloading (src/push/PushContext.tsx listens). */
const NAVIGATE_MESSAGE = 'mate:navigate';

const text = (value, fallback) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);

/**
 * Only a path of this app: '/chat/…' yes; 'https://…', '//evil.example', '/\\evil.example' and
 * anything the URL parser would read as another origin ('/\t/evil.example': tabs and line breaks
 * are dropped while parsing) → /dashboard. Judged by the parsed URL, as the browser will open it.
 */
function safeAppPath(url) {
  if (typeof url !== 'string' || !url.startsWith('/')) return FALLBACK_URL;
  try {
    const origin = self.location.origin;
    const parsed = new URL(url, origin);
    if (parsed.origin !== origin) return FALLBACK_URL;
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return FALLBACK_URL;
  }
}

/** A PushPayload (libs/contracts notifications.ts) → what showNotification takes; garbage → a generic one. */
function notificationFrom(payload) {
  const source = payload && typeof payload === 'object' ? payload : {};
  return {
    title: text(source.title, GENERIC_NOTIFICATION.title),
    options: {
      body: text(source.body, GENERIC_NOTIFICATION.body),
      tag: text(source.tag, GENERIC_NOTIFICATION.tag),
      renotify: true,
      icon: '/favicon.svg',
      data: { url: safeAppPath(source.url) },
    },
  };
}

function readPayload(data) {
  if (!data) return null;
  try {
    return data.json();
  } catch {
    return null;
  }
}

async function openApp(path) {
  const origin = self.location.origin;
  const target = new URL(path, origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((client) => new URL(client.url).origin === origin);
  const open = ours.find((client) => client.url === target) || ours.find((client) => client.focused) || ours[0];
  if (!open) return self.clients.openWindow(path);
  const focused = await open.focus();
  if (open.url !== target) (focused || open).postMessage({ type: NAVIGATE_MESSAGE, url: path });
  return focused;
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const { title, options } = notificationFrom(readPayload(event.data));
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = safeAppPath(event.notification.data && event.notification.data.url);
  event.waitUntil(openApp(path));
});

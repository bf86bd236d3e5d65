import { PrecacheController, PrecacheRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, Router } from 'workbox-routing';
import type { WorkerScope } from './worker-scope';

/** The page every screen of the app starts from (a single-page app: one HTML for all routes). */
export const APP_SHELL = '/index.html';

/**
 * Paths the worker never answers: the API (every answer is a member's own data, photos under
 * /api/photos/files included: the HTTP cache keeps those by their own headers) and the realtime
 * channel. They are neither cached nor given the app shell.
 */
export const NETWORK_ONLY_PATHS = [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/];

/** What a page posts to let a waiting worker take over (workbox-window's messageSkipWaiting). */
export const SKIP_WAITING = 'SKIP_WAITING';

/**
 * The offline app shell (issue 26). The build's files (index.html with its revision, the hashed
 * chunks and styles, icons, the manifest) are precached on install; any other request goes to
 * the network as if there were no worker, so nothing else ever lands in a cache. A navigation
 * anywhere in the app is answered with the precached index.html, which is how the app opens
 * offline. A new worker waits until the page asks it to take over (the "A new version is
 * available" banner), then drops the files the old build had that this one does not.
 */
export function serveAppShell(scope: WorkerScope, manifest: ReadonlyArray<PrecacheEntry | string>): void {
  const precache = new PrecacheController();
  precache.addToCacheList([...manifest]);

  const router = new Router();
  router.registerRoute(new PrecacheRoute(precache));
  router.registerRoute(
    new NavigationRoute(precache.createHandlerBoundToURL(new URL(APP_SHELL, scope.location.origin).href), {
      denylist: NETWORK_ONLY_PATHS,
    }),
  );

  scope.addEventListener('install', (event) => {
    void precache.install(event);
  });

  scope.addEventListener('activate', (event) => {
    void precache.activate(event);
    // The first worker takes the open page at once, so it opens offline from its next visit.
    event.waitUntil(scope.clients.claim());
  });

  scope.addEventListener('fetch', (event) => {
    const response = router.handleRequest({ event, request: event.request });
    if (response) event.respondWith(response);
  });

  scope.addEventListener('message', (event) => {
    const message = event.data as { type?: unknown } | null;
    if (message?.type === SKIP_WAITING) void scope.skipWaiting();
  });
}

/*
 * Mate's service worker, built to /sw.js by vite-plugin-pwa (pwa.config.mts): the offline app
 * shell and push notifications. `self.__WB_MANIFEST` is replaced at build time by the list of
 * the build's files with their revisions.
 */
import type { PrecacheEntry } from 'workbox-precaching';
import { serveAppShell } from './app-shell';
import { handlePushes } from './push-notifications';
import type { WorkerScope } from './worker-scope';

declare const self: WorkerScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

serveAppShell(self, self.__WB_MANIFEST);
handlePushes(self);

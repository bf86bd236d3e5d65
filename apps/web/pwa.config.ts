import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';

/**
 * What the service worker precaches (issue 26): the build's own files, so the app opens offline.
 * Not the `.br`/`.gz` copies the build writes beside them (the server picks those; the worker
 * fetches the plain URL and the server compresses the transfer), not source maps, not the
 * `.web-config.json` the static server reads. Never anything from /api: that is not in the
 * build (src/sw/app-shell.ts sends it to the network).
 */
export const PRECACHE_GLOBS = {
  globPatterns: ['**/*.{html,js,css,svg,png,webp,ico,woff,woff2,webmanifest}'],
  globIgnores: ['**/*.{br,gz,map}', '**/.web-config.json', 'sw.js'],
} satisfies Partial<VitePWAOptions['injectManifest']>;

/**
 * The member app as an installable app: src/sw/sw.ts built to /sw.js with the precache list
 * injected. The manifest is the static public/manifest.webmanifest (linked from index.html), and
 * src/pwa/sw-registration.ts registers the worker, so the plugin generates and injects neither.
 * No worker in `vite` dev: the app then runs without one (push reads as unavailable).
 */
export function installableApp() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    injectRegister: false,
    manifest: false,
    injectManifest: {
      ...PRECACHE_GLOBS,
      sourcemap: false,
    },
    devOptions: { enabled: false },
  });
}

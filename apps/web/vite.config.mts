import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TESTS } from './src/testing/isolated-tests';
import { installableApp } from './pwa.config';
import { AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY } from '../../libs/contracts/src/lib/constants';
import { configuredApiUrl, webConfigFile, workspaceAliases } from '../../tools/vite/app-config';
import { firstScreenBudget, headScript, precompress, prerender, scriptsAfterFirstPaint, sessionPreload } from '../../tools/vite/build-plugins';
import { earlyRequestsScript, routePattern } from './src/prerender/early-requests';

const appRoot = fileURLToPath(new URL('.', import.meta.url));
const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url));

export default defineConfig(({ mode }) => ({
  root: appRoot,
  cacheDir: `${workspaceRoot}node_modules/.vite/apps/web`,
  // Issue 26: at most 150 KB of compressed JavaScript before the sign-in screen shows.
  plugins: [
    react(),
    // Issue 26: `/` shows the sign-in screen at its first paint (src/prerender/signed-out-start.tsx).
    prerender({ entry: 'src/prerender/signed-out-start.tsx', templateId: 'signed-out-start' }),
    scriptsAfterFirstPaint(),
    // A visit with a session also fetches the signed-in frame's code from the start, together
    // with the code of the screen it opens on (the route's lazy chunk, src/app/AppRoutes.tsx),
    sessionPreload({
      entry: 'src/shell/AppShell.tsx',
      storageKeys: [AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY],
      screens: [
        { pattern: routePattern('/dashboard'), entry: 'src/screens/dashboard/DashboardScreen.tsx' },
        { pattern: routePattern('/discover'), entry: 'src/screens/discover/DiscoverScreen.tsx' },
        { pattern: routePattern('/matches'), entry: 'src/screens/messages/MessagesScreen.tsx' },
        { pattern: routePattern('/chat/:userId'), entry: 'src/screens/chat/ChatScreen.tsx' },
        { pattern: routePattern('/profile'), entry: 'src/screens/profile/ProfileScreen.tsx' },
      ],
    }),
    // and asks for its session check before the code arrives (ADR 0027, decision 6).
    headScript({
      name: 'early-requests',
      script: earlyRequestsScript({ storageKeys: [AUTH_TOKEN_KEY, LEGACY_TOKEN_KEY], apiUrl: configuredApiUrl(mode, appRoot) }),
    }),
    webConfigFile(mode, appRoot, { scriptHashes: true }),
    firstScreenBudget({ maxBrotliBytes: 150_000 }),
    precompress(),
    installableApp(),
  ],
  resolve: {
    alias: [
      ...workspaceAliases(),
      // simple-peer's package entry needs Node's stream/buffer polyfills; its prebuilt browser bundle does not.
      { find: /^simple-peer$/, replacement: 'simple-peer/simplepeer.min.js' },
    ],
  },
  server: { port: 4200, strictPort: true, host: 'localhost' },
  preview: { port: 4200, strictPort: true, host: 'localhost' },
  build: {
    outDir: `${workspaceRoot}dist/apps/web`,
    emptyOutDir: true,
    // Maps are written for error reporting but not linked from the bundles; the static server
    // never serves *.map either (issue 7 item 9).
    sourcemap: 'hidden',
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    // A test may wait on two or three findBy/waitFor (each up to 4 s, see src/testing/setup.ts)
    // while CI runs another project's suites beside it on two cores: Vitest's default 5 s ends
    // such a test before its own waits do.
    testTimeout: 20_000,
    // Most files share one jsdom and one module graph per worker (isolate: false): 49 s where a
    // fresh environment per file took 158 s, of which 46 s building jsdoms and 21 s re-importing
    // React and the app. The app keeps no state in its modules, and src/testing/setup.ts resets what
    // a page leaves (storage, timers, the DOM). The files that mock a module or stub a global keep
    // a graph of their own (src/testing/isolated-tests.ts, docs/adr/0023).
    projects: [
      { extends: true, test: { name: 'web', isolate: false, include: ['src/**/*.test.{ts,tsx}'], exclude: ISOLATED_TESTS } },
      { extends: true, test: { name: 'web (isolated)', include: ISOLATED_TESTS } },
    ],
  },
}));

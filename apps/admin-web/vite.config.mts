import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { webConfigFile, workspaceAliases } from '../../tools/vite/app-config';
import { firstScreenBudget, precompress } from '../../tools/vite/build-plugins';

const appRoot = fileURLToPath(new URL('.', import.meta.url));
const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url));

export default defineConfig(({ mode }) => ({
  root: appRoot,
  cacheDir: `${workspaceRoot}node_modules/.vite/apps/admin-web`,
  // Issue 26: the admin's sign-in screen under the same 150 KB budget as the member app's.
  plugins: [react(), webConfigFile(mode, appRoot), firstScreenBudget({ maxBrotliBytes: 150_000 }), precompress()],
  resolve: {
    alias: workspaceAliases(),
  },
  server: { port: 4300, strictPort: true, host: 'localhost' },
  preview: { port: 4300, strictPort: true, host: 'localhost' },
  build: {
    outDir: `${workspaceRoot}dist/apps/admin-web`,
    emptyOutDir: true,
    // Maps are written for error reporting but not linked from the bundles; the static server
    // never serves *.map either (issue 7 item 9).
    sourcemap: 'hidden',
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    // A test may wait on two or three findBy/waitFor (each up to 4 s, see src/testing/setup.ts)
    // while CI runs another project's suites beside it on two cores: Vitest's default 5 s ends
    // such a test before its own waits do.
    testTimeout: 20_000,
  },
}));

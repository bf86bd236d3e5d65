import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const appRoot = fileURLToPath(new URL('.', import.meta.url));
const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The @mate/* path aliases of tsconfig.base.json, so Vite resolves the libs from source. */
function workspaceAliases() {
  const { compilerOptions } = JSON.parse(readFileSync(`${workspaceRoot}tsconfig.base.json`, 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.entries(compilerOptions.paths).map(([alias, [target]]) => ({
    find: new RegExp(`^${alias.replace('/', '\\/')}$`),
    replacement: `${workspaceRoot}${target}`,
  }));
}

export default defineConfig({
  root: appRoot,
  cacheDir: `${workspaceRoot}node_modules/.vite/apps/web`,
  plugins: [react()],
  resolve: { alias: workspaceAliases() },
  server: { port: 4200, strictPort: true, host: 'localhost' },
  preview: { port: 4200, strictPort: true, host: 'localhost' },
  build: {
    outDir: `${workspaceRoot}dist/apps/web`,
    emptyOutDir: true,
    sourcemap: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
  },
});

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './src/support/chromium-flags';

/**
 * Browser journeys in Debian's Chromium (never a downloaded browser), against the platform that
 * run.mjs started. E2E_WEB_URL is the member app (baseURL); E2E_ADMIN_WEB_URL the admin app
 * (its own origin: open it with `adminUrl(path)` from src/support/admin-app.ts).
 */
export default defineConfig({
  testDir: './src/journeys',
  testMatch: '**/*.e2e.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  reporter: [['list']],
  outputDir: '../../dist/e2e/test-results',
  use: {
    baseURL: process.env.E2E_WEB_URL,
    viewport: { width: 1280, height: 900 },
    screenshot: 'only-on-failure',
    // A failed journey keeps its trace (dist/e2e/test-results/<test>/trace.zip): open it with
    // `npx playwright show-trace` to see every step, request and console line.
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
});

// Lighthouse 12.2.3 over the member app's and the admin app's screens, each as a first visit:
// Chromium launched by chrome-launcher, the sessions made by signing in with Playwright over CDP
// in the same browser (so Lighthouse's own tab shares them: `disableStorageReset`), and before
// every audit the HTTP cache cleared and the app's service worker and Cache Storage removed
// (never its localStorage, which holds the session), so neither the cache nor a service worker
// answers what a first visit downloads. The member screens use Lighthouse's default (mobile)
// config: simulated 4G and a mid-range phone; the admin screens its desktop preset.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CATEGORIES, medianOf, summarize } from './budgets.mjs';

/** Headless as root, nothing that phones home (as apps/e2e/src/support/chromium-flags.ts). */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  ...(process.env.BENCH_WEB_CHROME_FLAGS ?? '').split(' ').filter(Boolean),
];
const SIGN_IN_TIMEOUT_MS = 30_000;

/**
 * The screens of the issue. `session`: whose session the visit carries (none: a new visitor).
 * `path` may name the chat partner: `chatWith` replaces `{chatWith}`.
 */
export const SCREENS = [
  { name: '/', app: 'web', path: '/', session: null },
  { name: '/dashboard', app: 'web', path: '/dashboard', session: 'member' },
  { name: '/discover', app: 'web', path: '/discover', session: 'member' },
  { name: '/matches', app: 'web', path: '/matches', session: 'member' },
  { name: '/profile', app: 'web', path: '/profile', session: 'member' },
  { name: '/chat/{id}', app: 'web', path: '/chat/{chatWith}', session: 'member' },
  { name: 'admin /admin', app: 'admin', path: '/admin', session: 'admin' },
  { name: 'admin /admin/analytics', app: 'admin', path: '/admin/analytics', session: 'admin' },
];

async function signInMember(page, webUrl, { email, password }) {
  await page.goto(`${webUrl}/`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(/\/dashboard$/, { timeout: SIGN_IN_TIMEOUT_MS });
}

async function signInAdmin(page, adminWebUrl, { email, password }) {
  await page.goto(`${adminWebUrl}/`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor({ timeout: SIGN_IN_TIMEOUT_MS });
}

/**
 * Audits every screen. options: { webUrl, adminWebUrl, member: {email, password}, chatWith,
 * admin: {email, password}, runs (default 1), screens (default SCREENS), chromePath, log }.
 * Resolves `[{ screen, app, url, ...median summary, runs }]` in the order of `screens`.
 */
export async function auditScreens({ webUrl, adminWebUrl, member, chatWith, admin, runs = 1, screens = SCREENS, chromePath = '/usr/bin/chromium', log = () => undefined }) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  let browser = null;
  try {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const context = browser.contexts()[0];
    // The tab that signs in, then waits on about:blank (no socket of its own during the audits).
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const origins = { web: new URL(webUrl).origin, admin: new URL(adminWebUrl).origin };
    const signedIn = { member: false, admin: false };
    const results = [];
    for (const screen of screens) {
      const origin = origins[screen.app];
      if (screen.session && !signedIn[screen.session]) {
        if (screen.session === 'member') await signInMember(page, webUrl, member);
        else await signInAdmin(page, adminWebUrl, admin);
        await page.goto('about:blank');
        signedIn[screen.session] = true;
      }
      const url = `${origin}${screen.path.replace('{chatWith}', chatWith ?? '')}`;
      const summaries = [];
      for (let i = 0; i < runs; i++) {
        await cdp.send('Network.clearBrowserCache');
        // A visitor without a session: everything of the origin goes; else its session stays.
        const storageTypes = screen.session ? 'service_workers,cache_storage' : 'all';
        await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes });
        const started = Date.now();
        const result = await lighthouse(
          url,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: true },
          screen.app === 'admin' ? desktopConfig : undefined,
        );
        const summary = summarize(result.lhr, result.artifacts);
        // BENCH_WEB_REPORTS=<dir>: each Lighthouse report kept, to read what a figure is made of.
        if (process.env.BENCH_WEB_REPORTS) {
          mkdirSync(process.env.BENCH_WEB_REPORTS, { recursive: true });
          const file = `${screen.name.replace(/[^a-z0-9]+/gi, '_') || 'root'}-${i + 1}.json`;
          writeFileSync(path.join(process.env.BENCH_WEB_REPORTS, file), JSON.stringify(result.lhr));
          writeFileSync(path.join(process.env.BENCH_WEB_REPORTS, file.replace(/\.json$/, '.lcp-graph.txt')), lcpGraphText());
        }
        if (screen.session && new URL(summary.url).pathname !== new URL(url).pathname) {
          throw new Error(`${screen.name}: Lighthouse ended on ${summary.url}, not ${url} (the session did not hold)`);
        }
        summaries.push(summary);
        log(`${screen.name}${runs > 1 ? ` run ${i + 1}/${runs}` : ''}: performance ${summary.performance}, LCP ${(summary.lcpMs / 1000).toFixed(1)} s (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
      results.push({ screen: screen.name, app: screen.app, ...medianOf(summaries) });
    }
    return results;
  } finally {
    await browser?.close().catch(() => undefined);
    chrome.kill();
  }
}

/**
 * The nodes Lighthouse's simulation (Lantern) put in the LCP estimate of the audit just run, in
 * simulated time: what a simulated LCP is made of (requests and main-thread tasks, the CPU ones
 * already multiplied by the CPU slowdown).
 */
function lcpGraphText() {
  const lines = [];
  for (const label of ['optimisticLargestContentfulPaint', 'pessimisticLargestContentfulPaint']) {
    const timings = Lantern.Simulation.Simulator.allNodeTimings.get(label);
    if (!timings) continue;
    const rows = [...timings.entries()].sort((a, b) => a[1].startTime - b[1].startTime);
    const end = Math.max(...rows.map(([, t]) => t.endTime));
    lines.push(`# ${label}: ${rows.length} nodes, ends at ${end.toFixed(0)} ms`);
    for (const [node, t] of rows) {
      const what =
        node.type === 'network'
          ? `${node.request.resourceType ?? '?'} ${node.request.priority} ${node.request.url.replace(/^https?:\/\/[^/]+/, '')} ${node.request.transferSize} B`
          : `cpu ${(node.duration / 1000).toFixed(1)} ms observed: ${[...new Set(node.childEvents.map((e) => e.name))]
              .filter((n) => ['EvaluateScript', 'v8.compile', 'FunctionCall', 'Layout', 'UpdateLayoutTree', 'ParseHTML', 'Paint', 'TimerFire', 'XHRReadyStateChange', 'ResourceFinish', 'RunMicrotasks', 'ParseAuthorStyleSheet'].includes(n))
              .join(',')} ${[...(node.getEvaluateScriptURLs?.() ?? [])].map((u) => u.replace(/^https?:\/\/[^/]+/, '')).join(' ')}`;
      lines.push(`${t.startTime.toFixed(0).padStart(6)} ${t.endTime.toFixed(0).padStart(6)}  ${what}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { signUpVerifyAndSignIn } from '../support/auth-flow';
import { uniqueEmail } from '../support/mailbox';
import { watchCspViolations } from '../support/csp';
import { watchRealtime } from '../support/realtime';

const WORK_DIR = path.resolve(__dirname, '../../../../dist/e2e/uploads');

async function makePhoto(): Promise<string> {
  mkdirSync(WORK_DIR, { recursive: true });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000">
    <rect width="800" height="1000" fill="#7b1fa2"/><circle cx="400" cy="420" r="200" fill="#f3d2c1"/></svg>`;
  const file = path.join(WORK_DIR, 'csp-check.jpg');
  writeFileSync(file, await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
  return file;
}

test('the member app runs under a strict CSP with no violation, and a browser that kept only auth_token still uploads photos', async ({ page, request }) => {
  const violations = await watchCspViolations(page);
  const realtime = watchRealtime(page);

  // The page's own answer carries the headers (issue 7 item 9).
  const first = await page.goto('/');
  const headers = first?.headers() ?? {};
  // Scripts from the app's own origin, and the build's inline scripts by their hashes only (ADR 0027).
  expect(headers['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]{43}=')*;/);
  expect(headers['content-security-policy']).toMatch(/style-src 'self';/);
  expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(headers['permissions-policy']).toBe('camera=(self), microphone=(self), geolocation=(self), payment=(), usb=()');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');

  // The bundles link no source map and the server has none to give.
  const script = await page.locator('script[type="module"][src]').first().getAttribute('src');
  expect(script).toMatch(/^\/assets\/.+\.js$/);
  const bundle = await request.get(script as string);
  expect(await bundle.text()).not.toContain('sourceMappingURL');
  expect((await request.get(`${script}.map`)).status()).toBe(404);

  // Sign up, verify, sign in: the auth screens.
  const email = uniqueEmail('csp');
  const password = 'csp journey password 1';
  await signUpVerifyAndSignIn(page, { email, password, name: 'Robin', age: '31' });
  await expect.poll(realtime.connected).toBe(1);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Robin!' })).toBeVisible();

  // Issue 7 item 12: a browser that kept only auth_token (the second key lost) starts with both
  // again, and the photo upload, which reads `token`, works instead of 'Not authenticated'.
  await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto('/profile');
  await expect(page.getByText('0/6 photos uploaded')).toBeVisible();
  const keys = await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('token')]);
  expect(keys[0]).toBeTruthy();
  expect(keys[1]).toBe(keys[0]);
  await page.getByLabel('Upload photo').setInputFiles(await makePhoto());
  await expect(page.getByText('1/6 photos uploaded')).toBeVisible();
  await expect(page.getByText('Not authenticated')).toHaveCount(0);
  // The photo comes from the API origin and is allowed to load (img-src).
  const photo = page.getByRole('list', { name: 'Your photos' }).getByRole('img').first();
  await expect(photo).toHaveJSProperty('complete', true);
  expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Sessions: the current one shows the server's last activity (just now: this very request).
  await page.goto('/settings/sessions');
  await expect(page.getByText('Current Session')).toBeVisible();
  await expect(page.getByText(/^Last active: /).first()).toBeVisible();

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome, Robin!' })).toBeVisible();
  await expect.poll(realtime.connected).toBe(1);

  expect(violations).toEqual([]);
});

import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { watchCspViolations } from '../support/csp';
import { uniqueEmail, waitForLink } from '../support/mailbox';
import { watchRealtime } from '../support/realtime';

const MAILDEV = process.env.E2E_MAILDEV_URL ?? 'http://127.0.0.1:1080';
const SCREENSHOT_DIR = path.resolve(__dirname, '../../../../dist/e2e/screenshots');

test('a newcomer signs up, verifies the email, signs in, skips onboarding, sees the dashboard and sessions, and signs out', async ({ page }) => {
  // Every screen on the way runs under the web app's strict CSP (issue 7 item 9).
  const violations = await watchCspViolations(page);
  const email = uniqueEmail('newcomer');
  const password = 'journey password 1';
  const realtime = watchRealtime(page);

  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Name').fill('Avery');
  await page.getByLabel('Age').fill('30');
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

  await expect(page).toHaveURL(/\/verify-email-prompt$/);
  await expect(page.getByRole('heading', { name: 'Verify Your Email' })).toBeVisible();

  // The link from the real email, as the member would click it in their inbox.
  const link = await waitForLink(MAILDEV, email, '/verify-email');
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText(/verified/i).first()).toBeVisible();
  // Verification clears the stored session and returns to sign-in after 2 s.
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();

  await expect(page).toHaveURL(/\/onboarding$/);
  const stored = await page.evaluate(() => ({
    authToken: localStorage.getItem('auth_token'),
    token: localStorage.getItem('token'),
    user: JSON.parse(localStorage.getItem('auth_user') ?? 'null'),
  }));
  expect(stored.authToken).toBeTruthy();
  expect(stored.token).toBe(stored.authToken);
  expect(stored.user).toMatchObject({ email, name: 'Avery' });

  // Signed in, the app opens one realtime channel through the gateway (spec 000 §4).
  await expect.poll(realtime.connected).toBe(1);

  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Avery!' })).toBeVisible();
  await expect(page.getByText('AI-Driven Dating Platform')).toBeVisible();
  await expect(page.locator('#main-content').getByText(email)).toBeVisible();
  // The placeholder's cards are gone (issue 25): the home, empty for a newcomer, leads to Discover.
  await expect(page.getByText('Coming Soon')).toHaveCount(0);
  await expect(page.getByText(/Phase 1/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Discover people' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'New matches' }).getByText(/No matches yet/)).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Who liked you' }).getByText(/No new likes right now/),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Unread messages' }).getByText("You're all caught up."),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Complete your profile' }).getByRole('link', { name: /Add a photo/ }),
  ).toBeVisible();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard.png'), fullPage: true });

  await page.goto('/settings/sessions');
  await expect(page.getByText('Current Session')).toBeVisible();
  // The sign-up session is still alive on the server (verifying only cleared this browser's copy).
  await page.getByRole('button', { name: 'Logout All Other Devices' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Logout All Other Devices?' });
  await dialog.getByRole('button', { name: 'Logout All' }).click();
  await expect(page.getByText('This is your only active session.')).toBeVisible();
  await expect(page.getByText('Current Session')).toBeVisible();

  await expect.poll(realtime.connected).toBe(1);
  await page.getByRole('button', { name: 'Logout', exact: true }).first().click();
  await expect(page).toHaveURL(/\/(login)?$/);
  expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('token')])).toEqual([null, null]);
  // Signing out closes the realtime channel.
  await expect.poll(realtime.open).toBe(0);

  // Signed out, a protected route sends the visitor back to sign-in.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/(login)?$/);
  expect(violations).toEqual([]);
});

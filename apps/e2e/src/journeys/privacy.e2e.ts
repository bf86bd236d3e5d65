import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { AuthMessages, type MemberDataExport } from '@mate/contracts';
import { watchCspViolations } from '../support/csp';
import { call, createMember, signIn } from '../support/members';

const PASSWORD = 'privacy web journey password 1';
/** Spec 001 §9: the prompt shows 3 s after load. */
const PROMPT_DELAY_MS = 3_000;

/** With E2E_SHOTS_DIR set, the journey leaves screenshots of the screens it passes (for review). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

/** The page has been loaded longer than the prompt's delay (plus a margin): a prompt would be up. */
async function pastPromptDelay(page: Page): Promise<void> {
  await page.waitForFunction((ms) => performance.now() > ms, PROMPT_DELAY_MS + 1_500);
}

test('the notification prompt is dismissed for good, a notification switch persists, Download Data saves mate-data-export-{date}.json, and Delete Account lands on /login and the account can no longer sign in', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const member = await createMember(
    { name: 'Parker', age: 73, gender: 'male', seeks: 'female', ages: [72, 74], city: 'Boise, ID' },
    '#2e7d32',
    PASSWORD,
  );
  const violations = await watchCspViolations(page);
  await signIn(page, member);
  const nav = page.getByRole('navigation', { name: 'Main' });

  // The launcher grants nothing: the browser has not been asked yet.
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
  // Spec 001 §7: a service worker is registered from /sw.js.
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? null))
    .toMatch(/\/sw\.js$/);

  // The prompt, 3 s after load; Maybe Later puts it away, and it stays away after a reload.
  const prompt = page.getByRole('region', { name: 'Enable Notifications' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('Stay updated on new matches and messages');
  await expect(prompt.getByRole('button', { name: 'Enable Notifications' })).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Dismiss notification prompt' })).toBeVisible();
  await shot(page, 'dashboard-1280-notification-prompt');
  await prompt.getByRole('button', { name: 'Maybe Later' }).click();
  await expect(prompt).toHaveCount(0);
  await page.reload();
  await expect(nav).toBeVisible();
  await pastPromptDelay(page);
  await expect(prompt).toHaveCount(0);

  // Notification settings: push is off on this device; a switch changes and persists.
  await nav.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notification Settings' })).toBeVisible();
  const pushCard = page.getByRole('region', { name: 'Push Notifications' });
  await expect(pushCard.getByText('Disabled')).toBeVisible();
  await expect(pushCard.getByRole('button', { name: 'Enable' })).toBeEnabled();
  const newLikes = page.getByRole('switch', { name: 'New Likes' });
  await expect(newLikes).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('switch', { name: 'Private previews' })).toHaveAttribute('aria-checked', 'false');
  await newLikes.click();
  await expect(newLikes).toHaveAttribute('aria-checked', 'false');
  await expect
    .poll(async () => (await call<{ newLikes?: boolean }>('GET', '/api/notifications/preferences', member)).body?.newLikes)
    .toBe(false);
  await shot(page, 'notifications-1280');
  await page.reload();
  await expect(newLikes).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('switch', { name: 'New Matches' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Privacy & Data: the export downloads as mate-data-export-{date}.json, pretty-printed.
  await nav.getByRole('link', { name: 'Privacy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy & Data' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Data' }).click();
  const download = await downloading;
  const today = await page.evaluate(() => {
    const now = new Date();
    return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  });
  expect(download.suggestedFilename()).toBe(`mate-data-export-${today}.json`);
  const text = await readFile(await download.path(), 'utf8');
  const exported = JSON.parse(text) as MemberDataExport;
  expect(text).toBe(JSON.stringify(exported, null, 2));
  expect(exported).toMatchObject({ format: 'mate-data-export', userId: member.id });
  expect(exported.notifications.preferences.newLikes).toBe(false);
  await expect(page.getByText('Your data has been downloaded.')).toBeVisible();

  // Delete Account: the warning and the confirmation; the button waits for an email.
  const deleteCard = page.getByRole('region', { name: 'Delete Account' });
  await deleteCard.getByRole('button', { name: 'Delete Account' }).click();
  await expect(deleteCard).toContainText('This cannot be undone');
  const confirm = deleteCard.getByRole('button', { name: 'Permanently Delete' });
  await expect(confirm).toBeDisabled();
  await deleteCard.getByRole('textbox', { name: 'Type your email to confirm' }).fill(member.email);
  await shot(page, 'privacy-1280-delete');
  await confirm.click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  expect(
    await page.evaluate(() => ['auth_token', 'token', 'auth_user'].map((key) => window.localStorage.getItem(key))),
  ).toEqual([null, null, null]);

  // The account is gone: signing in again is refused, in the app and at the gateway.
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(AuthMessages.invalidCredentials);
  await expect(page).toHaveURL(/\/login$/);
  expect((await call('POST', '/api/auth/login', { body: { email: member.email, password: member.password } })).status).toBe(401);
  expect((await call('GET', '/api/auth/me', member)).status).toBe(401);

  expect(violations).toEqual([]);
});

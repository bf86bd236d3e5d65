import { expect, type Page } from '@playwright/test';

/**
 * The admin app (apps/admin-web), which run.mjs serves on its own origin (E2E_ADMIN_WEB_URL,
 * calling this run's gateway). The member app's /admin routes open it at the same path.
 */
export function adminWebUrl(): string {
  const url = process.env.E2E_ADMIN_WEB_URL;
  if (!url) throw new Error('E2E_ADMIN_WEB_URL must be set (apps/e2e/run.mjs sets it)');
  return url.replace(/\/+$/, '');
}

/**
 * The address this run's auth-service makes an admin once it is verified (ADMIN_EMAILS in run.mjs):
 * sign it up and verify it like any member, then sign in to the admin app with it.
 */
export function e2eAdminEmail(): string {
  const email = process.env.E2E_ADMIN_EMAIL;
  if (!email) throw new Error('E2E_ADMIN_EMAIL must be set (apps/e2e/run.mjs sets it)');
  return email;
}

/** A full address in the admin app: `adminUrl('/admin/photos')`. */
export function adminUrl(path = '/'): string {
  return `${adminWebUrl()}${path}`;
}

/**
 * Opens the admin app's sign-in and signs in; an admin lands on the dashboard (/admin). The admin
 * app keeps its own session (its own origin's storage), so a member-app sign-in does not carry over.
 */
export async function signInToAdminApp(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto(adminUrl('/'));
  await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/admin');
}

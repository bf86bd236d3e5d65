import { spawnSync } from 'node:child_process';
import path from 'node:path';
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

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * The deployment's own way to make an admin (`npm run admin:grant`): auth-service's grant-admin
 * command against this run's auth database. The account signs in again to carry the role.
 */
export function grantAdmin(email: string): void {
  const databases = JSON.parse(process.env.E2E_DATABASES ?? '{}') as Record<string, string>;
  if (!databases.auth) throw new Error('E2E_DATABASES must name the auth database (apps/e2e/run.mjs sets it)');
  const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/apps/auth-service/main.js'), 'grant-admin', email], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databases.auth,
      REDIS_URL: process.env.E2E_REDIS_URL,
      ...(process.env.E2E_REDIS_CLUSTER_NODES ? { REDIS_CLUSTER_NODES: process.env.E2E_REDIS_CLUSTER_NODES } : {}),
      KEY_PREFIX: process.env.E2E_KEY_PREFIX,
      LOG_LEVEL: 'warn',
    },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`grant-admin failed: ${result.stderr}`);
}

import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { AuditLogPageDto, PendingPhotosResponseDto } from '@mate/contracts';
import { adminUrl, grantAdmin, signInToAdminApp } from '../support/admin-app';
import { watchCspViolations } from '../support/csp';
import { call, createMember, signIn, type Member, type MemberSpec } from '../support/members';

/**
 * Issue 13's admin journey, in the admin app (its own origin): an admin dismisses a report, opens
 * every pending report (issue 25's reports screen), suspends the reported member (whose open
 * session is refused on its next request), rejects a photo, opens analytics (charts drawn),
 * exports them, and finds all three actions in the audit log.
 */

const PASSWORD = 'admin journey password 1';
/** A city and ages no other journey uses, so these members never meet the others. */
const CITY = 'Boise, ID';

const member = (spec: Omit<MemberSpec, 'city'>, hue: string): Promise<Member> =>
  createMember({ ...spec, city: CITY }, hue, PASSWORD);

/** With E2E_SHOTS_DIR set, the journey leaves screenshots of the screens it passes (for review). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

test('an admin dismisses a report, suspends the reported member, rejects a photo, reads and exports analytics, and finds every action in the audit log', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const [avery, blake, casey, admin] = await Promise.all([
    member({ name: 'Avery', age: 71, gender: 'female', seeks: 'male', ages: [70, 72] }, '#1565c0'),
    member({ name: 'Blake', age: 71, gender: 'male', seeks: 'female', ages: [70, 72] }, '#2e7d32'),
    member({ name: 'Casey', age: 71, gender: 'male', seeks: 'female', ages: [70, 72] }, '#c62828'),
    member({ name: 'Morgan', age: 44, gender: 'female', seeks: 'male', ages: [40, 50] }, '#6d4c41'),
  ]);
  grantAdmin(admin.email);
  // A token signed after the grant carries the role.
  const login = await call<{ token: string }>('POST', '/api/auth/login', { body: { email: admin.email, password: PASSWORD } });
  expect(login.status).toBe(200);
  admin.token = login.body.token;

  // Avery reports Blake and Casey.
  for (const [reported, details] of [
    [blake, 'Asked me for money on the first day.'],
    [casey, 'I think this is a misunderstanding.'],
  ] as const) {
    const res = await call('POST', `/api/safety/report/${reported.id}`, { ...avery, body: { reason: 'harassment', details } });
    expect(res.status).toBe(201);
  }

  // Blake is signed in to the member app in a browser of their own.
  const blakeContext = await browser.newContext({ baseURL: process.env.E2E_WEB_URL });
  const blakePage = await blakeContext.newPage();
  await signIn(blakePage, blake);

  const violations = await watchCspViolations(page);
  await signInToAdminApp(page, admin);
  await expect(page.getByText('Platform moderation and management')).toBeVisible();
  await shot(page, 'admin-1280-dashboard');

  // Dismiss Casey's report with a note (the dashboard lists pending reports by default).
  const reports = page.getByRole('listitem').filter({ hasText: casey.email });
  await expect(reports).toHaveCount(1);
  const caseyReport = reports.first();
  await expect(caseyReport.getByText('Pending', { exact: true })).toBeVisible();
  await caseyReport.getByLabel('Note (optional)').fill('Checked the conversation: no harassment.');
  await caseyReport.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: casey.email })).toHaveCount(0);
  await page.getByRole('button', { name: 'Dismissed' }).click();
  const dismissed = page.getByRole('listitem').filter({ hasText: casey.email });
  await expect(dismissed.getByText('Checked the conversation: no harassment.')).toBeVisible();
  await page.getByRole('button', { name: 'Pending' }).click();

  // The dashboard shows three reports; every pending one is a click away on the reports screen
  // (20 a page, newest first), where Blake's is.
  await page.getByRole('link', { name: /^View all reports \(\d+\)$/ }).click();
  await expect(page).toHaveURL(adminUrl('/admin/reports?status=pending'));
  await expect(page.getByRole('navigation', { name: 'Report pages' })).toContainText(/Page 1 of \d+/);
  await shot(page, 'admin-1280-reports');

  // View Blake and suspend him: the prompt asks for a reason, then the success alert.
  const blakeReport = page.getByRole('listitem').filter({ hasText: blake.email }).first();
  await blakeReport.getByRole('link', { name: 'View User' }).click();
  await expect(page).toHaveURL(adminUrl(`/admin/users/${blake.id}`));
  await expect(page.getByRole('heading', { name: 'Profile Information' })).toBeVisible();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void (dialog.type() === 'prompt' ? dialog.accept('Asking members for money') : dialog.accept());
  });
  await page.getByRole('button', { name: 'Suspend User' }).click();
  await expect.poll(() => dialogs).toEqual(['prompt: Enter suspension reason:', 'alert: User suspended successfully']);
  await expect(page.getByText('Asking members for money')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unsuspend User' })).toBeVisible();
  await shot(page, 'admin-1280-user-suspended');

  // Blake's open session is refused on its next request, in the API and in his browser.
  const refused = await call<{ error: string }>('GET', '/api/profile/me', blake);
  expect(refused.status).toBe(401);
  await blakePage.reload();
  await expect(blakePage).toHaveURL(/\/(login)?$/);
  await blakeContext.close();

  // Reject Casey's photo in the photo queue.
  await page.goto(adminUrl('/admin'));
  await page.getByRole('link', { name: 'Photo Moderation' }).click();
  await expect(page).toHaveURL(adminUrl('/admin/photos'));
  await expect(page.getByText('Select a photo to review')).toBeVisible();
  const queue = await call<PendingPhotosResponseDto>('GET', '/admin/photos/pending', admin);
  const caseyPhoto = queue.body.photos.find((p) => p.userId === casey.id);
  expect(caseyPhoto).toBeDefined();
  const tile = page
    .getByRole('list', { name: 'Pending photos' })
    .getByRole('button', { name: /Photo by Casey/ })
    .filter({ has: page.locator(`img[src*="${caseyPhoto?.id}"]`) });
  await tile.click();
  await expect(page.getByRole('heading', { name: 'Review Photo' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reject Photo' })).toBeDisabled();
  await page.getByLabel('Rejection reason').fill('Not a photo of a person');
  await shot(page, 'admin-1280-photo-review');
  await page.getByRole('button', { name: 'Reject Photo' }).click();
  await expect(page.getByText('Select a photo to review')).toBeVisible();
  await expect
    .poll(async () => (await call<PendingPhotosResponseDto>('GET', '/admin/photos/pending', admin)).body.photos.map((p) => p.id))
    .not.toContain(caseyPhoto?.id);
  // Gone everywhere at once: Casey's own photo list no longer has it.
  const own = await call<{ id: string }[]>('GET', '/api/photos', casey);
  expect(JSON.stringify(own.body)).not.toContain(caseyPhoto?.id);

  // Analytics: the charts are drawn (each as it comes near the window: issue 26), and Export
  // downloads the JSON the spec lists.
  await page.goto(adminUrl('/admin'));
  await page.getByRole('link', { name: 'View Analytics' }).click();
  await expect(page).toHaveURL(adminUrl('/admin/analytics'));
  for (const name of ['User growth: total users and new users by date', 'Daily, weekly and monthly active users', 'Pending versus resolved reports']) {
    const chart = page.getByRole('img', { name });
    await chart.scrollIntoViewIfNeeded();
    await expect(chart.locator('svg path').first()).toBeAttached();
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'admin-1280-analytics');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown>;
  expect(Object.keys(exported).sort()).toEqual(['engagement', 'exportedAt', 'growth', 'matches', 'overview', 'retention', 'safety']);
  expect((exported.overview as { totalUsers: number }).totalUsers).toBeGreaterThanOrEqual(4);

  // The audit log holds all three actions, newest first.
  await page.goto(adminUrl('/admin'));
  await page.getByRole('link', { name: 'Audit Logs' }).click();
  await expect(page).toHaveURL(adminUrl('/admin/audit'));
  await page.getByLabel('Search').fill(admin.email);
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const entries = page.locator('li.audit-entry');
  await expect(entries.filter({ hasText: 'Rejected Photo' }).filter({ hasText: casey.email })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Suspended User' }).filter({ hasText: blake.email })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Resolved Report' }).filter({ hasText: casey.email })).toHaveCount(1);
  const suspension = entries.filter({ hasText: 'Suspended User' });
  await suspension.getByText('Details').click();
  await expect(suspension.getByText('Asking members for money')).toBeVisible();
  await shot(page, 'admin-1280-audit');
  const api = await call<AuditLogPageDto>('GET', `/api/admin/audit?search=${encodeURIComponent(admin.email)}`, admin);
  expect(api.body.logs.map((l) => l.action)).toEqual(['reject_photo', 'suspend_user', 'resolve_report']);
  expect(violations).toEqual([]);
});

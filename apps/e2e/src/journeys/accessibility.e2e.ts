import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { adminUrl, grantAdmin, signInToAdminApp } from '../support/admin-app';
import { MAILDEV } from '../support/auth-flow';
import { seriousViolations } from '../support/axe';
import { CHROMIUM_ARGS } from '../support/chromium-flags';
import { watchCspViolations } from '../support/csp';
import { tokenOf, uniqueEmail, waitForLink } from '../support/mailbox';
import { watchRealtime } from '../support/realtime';
import { call, createMember as createMemberIn, matchMembers, signIn, suggestedIds, type Member, type MemberSpec } from '../support/members';

/**
 * Issue 25 point 4: every screen of both apps has no serious or critical WCAG 2.1 A/AA violation
 * (axe-core). Every screen at 1280x800, and at 390x844 those whose layout changes most. The
 * journey visits them all and fails once at the end with every finding (screen, rule, impact,
 * elements, help), so one run shows all there is to fix.
 *
 * To add a screen: a plain route goes into MEMBER_ROUTES / ADMIN_ROUTES (with the viewports to
 * check it at); a screen that needs a state (a dialog open, a call ringing) gets a step below.
 */

const PASSWORD = 'accessibility journey password 1';
/** A city and ages no other journey uses, so these members meet nobody else. */
const CITY = 'Tulsa, OK';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
type Size = 'desktop' | 'phone';

interface RouteScreen {
  /** A path, or a function of the journey's members (a member's id in it). */
  path: string | ((cast: Cast) => string);
  sizes?: Size[];
  /** What says the screen has loaded; default: its h1. */
  ready?: (page: Page) => Locator;
}

interface Cast {
  avery: Member;
  blake: Member;
}

/** The member app's signed-out screens (spec 000 §2); links from emails carry a token. */
const PUBLIC_ROUTES: RouteScreen[] = [
  { path: '/' },
  { path: '/forgot-password' },
  { path: '/reset-password?token=a11y-sweep-unknown-token' },
  { path: '/verify-email?token=a11y-sweep-unknown-token' },
  { path: '/verify-email-change?token=a11y-sweep-unknown-token' },
  { path: '/cancel-email-change?token=a11y-sweep-unknown-token' },
];

/** The member app's signed-in routes (spec 000 §2, 001 §2), for a member with a match and messages. */
const MEMBER_ROUTES: RouteScreen[] = [
  { path: '/dashboard', sizes: ['desktop', 'phone'] },
  { path: '/discover', sizes: ['desktop', 'phone'], ready: (page) => page.getByRole('group', { name: 'Swipe actions' }) },
  { path: '/matches' },
  { path: ({ blake }) => `/chat/${blake.id}`, sizes: ['desktop', 'phone'], ready: (page) => page.getByText('See you on Saturday?') },
  { path: '/calls' },
  { path: '/preferences' },
  { path: '/profile' },
  { path: '/safety' },
  { path: '/settings/notifications' },
  { path: '/settings/filters' },
  { path: '/settings/sessions' },
  { path: '/settings/privacy' },
  { path: '/settings/account' },
];

/** The admin app's routes (spec 001 §2); /admin/reports joins when the app has it. */
const ADMIN_ROUTES: RouteScreen[] = [
  { path: '/admin', sizes: ['desktop', 'phone'] },
  { path: ({ blake }) => `/admin/users/${blake.id}` },
  { path: '/admin/photos' },
  { path: '/admin/analytics' },
  { path: '/admin/audit' },
  ...(adminAppHasRoute('/admin/reports') ? [{ path: '/admin/reports' }] : []),
];

/** Whether the admin app's route table names `route` (screens arrive while the sweep stands). */
function adminAppHasRoute(route: string): boolean {
  const table = path.resolve(__dirname, '../../../admin-web/src/app/AppRoutes.tsx');
  return existsSync(table) && readFileSync(table, 'utf8').includes(`'${route}'`);
}

const createMember = (spec: Omit<MemberSpec, 'city'>, hue: string): Promise<Member> =>
  createMemberIn({ ...spec, city: CITY }, hue, PASSWORD);

/** An account signed up (and verified when asked) that has not been through onboarding. */
async function newAccount(name: string, verified: boolean): Promise<{ email: string; password: string }> {
  const email = uniqueEmail(name.toLowerCase());
  expect((await call('POST', '/api/auth/register', { body: { email, password: PASSWORD, name } })).status).toBe(201);
  if (verified) {
    const link = await waitForLink(MAILDEV, email, '/verify-email');
    expect((await call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } })).status).toBe(200);
  }
  return { email, password: PASSWORD };
}

async function signInLandingOn(page: Page, account: { email: string; password: string }, landing: RegExp): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(landing);
}

test('every screen of the member app and the admin app has no serious or critical WCAG 2.1 A/AA violation', async () => {
  // Every screen and state, each checked by axe at one or two sizes: it fitted in 5 minutes until
  // a loaded CI machine (the platform in containers beside it) took longer.
  test.setTimeout(600_000);
  const findings: string[] = [];
  const cspLists: string[][] = [];

  /** Checks the page as it is now, under `name`. */
  const swept: string[] = [];
  async function sweep(page: Page, name: string): Promise<void> {
    swept.push(name);
    const found = await seriousViolations(page, name);
    // Printed as found too: a step that fails later still leaves what the sweep saw.
    for (const line of found) console.log(`[a11y] ${line}`);
    findings.push(...found);
  }

  async function visit(page: Page, screen: RouteScreen, cast: Cast, base: (p: string) => string, label: string): Promise<void> {
    const target = typeof screen.path === 'string' ? screen.path : screen.path(cast);
    for (const size of screen.sizes ?? ['desktop']) {
      await page.setViewportSize(size === 'desktop' ? DESKTOP : PHONE);
      await page.goto(base(target));
      await expect((screen.ready ?? ((p: Page) => p.locator('h1').first()))(page)).toBeVisible();
      // Its data is in: no spinner left (waiting for network idle costs half a second a screen).
      await expect(page.locator('.mate-spinner__ring')).toHaveCount(0);
      await sweep(page, `${label} ${typeof screen.path === 'string' ? screen.path : target} @${size}`);
    }
  }

  async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: process.env.E2E_WEB_URL, viewport });
    const page = await context.newPage();
    const csp = await watchCspViolations(page);
    // Read at the end: the list fills as the page goes.
    cspLists.push(csp);
    return { context, page };
  }

  const [avery, blake, casey, drew, admin, unverified, notOnboarded] = await Promise.all([
    createMember({ name: 'Avery', age: 77, gender: 'female', seeks: 'male', ages: [76, 78] }, '#5e35b1'),
    createMember({ name: 'Blake', age: 77, gender: 'male', seeks: 'female', ages: [76, 78] }, '#00897b'),
    createMember({ name: 'Casey', age: 77, gender: 'male', seeks: 'female', ages: [76, 78] }, '#f4511e'),
    createMember({ name: 'Drew', age: 77, gender: 'male', seeks: 'female', ages: [76, 78] }, '#3949ab'),
    createMember({ name: 'Morgan', age: 30, gender: 'female', seeks: 'male', ages: [18, 19] }, '#6d4c41'),
    newAccount('Quinn', false),
    newAccount('Rory', true),
  ]);
  const cast: Cast = { avery, blake };
  await matchMembers(avery, blake);
  // Avery liked Casey: Casey's like back, later, opens 'It's a Match!' on Avery's screen. Drew is
  // left on Avery's Discover.
  await expect.poll(() => suggestedIds(avery)).toContain(casey.id);
  expect((await call('POST', `/api/matches/like/${casey.id}`, avery)).body).toMatchObject({ matched: false });
  await expect.poll(() => suggestedIds(avery)).toEqual([drew.id]);
  expect((await call('POST', `/api/safety/report/${blake.id}`, { ...avery, body: { reason: 'spam', details: 'Sends the same link to everyone.' } })).status).toBe(201);

  // Chromium's fake camera and microphone: the call screen opens without a real device.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  });
  try {
    const member = (p: string) => p;

    await test.step('public screens of the member app', async () => {
      const { context, page } = await newPage(browser);
      for (const screen of PUBLIC_ROUTES) await visit(page, screen, cast, member, 'web');
      await page.goto('/');
      await page.getByRole('button', { name: 'Create an account' }).click();
      await expect(page.getByRole('button', { name: 'I already have an account' })).toBeVisible();
      await sweep(page, 'web / (Sign Up) @desktop');
      await context.close();
    });

    await test.step('signed in before onboarding: /verify-email-prompt and /onboarding', async () => {
      const { context, page } = await newPage(browser);
      await signInLandingOn(page, unverified, /\/verify-email-prompt$/);
      await expect(page.locator('h1')).toBeVisible();
      await sweep(page, 'web /verify-email-prompt @desktop');
      await context.close();
      const second = await newPage(browser);
      await signInLandingOn(second.page, notOnboarded, /\/onboarding$/);
      await expect(second.page.locator('h1')).toBeVisible();
      await sweep(second.page, 'web /onboarding @desktop');
      await second.context.close();
    });

    const averys = await newPage(browser);
    const blakes = await newPage(browser);
    await test.step('a chat with messages from both sides', async () => {
      await signIn(averys.page, avery);
      await signIn(blakes.page, blake);
      await blakes.page.goto(`/chat/${avery.id}`);
      await blakes.page.getByRole('textbox', { name: 'Message' }).fill('Hi Avery, lovely profile!');
      await blakes.page.getByRole('button', { name: 'Send message' }).click();
      await averys.page.goto(`/chat/${blake.id}`);
      await expect(averys.page.getByText('Hi Avery, lovely profile!')).toBeVisible();
      await averys.page.getByRole('textbox', { name: 'Message' }).fill('See you on Saturday?');
      await averys.page.getByRole('button', { name: 'Send message' }).click();
      await expect(blakes.page.getByText('See you on Saturday?')).toBeVisible();
      await blakes.page.goto('/dashboard');
    });

    await test.step('every signed-in route of the member app', async () => {
      for (const screen of MEMBER_ROUTES) await visit(averys.page, screen, cast, member, 'web');
    });

    await test.step("a member's profile (the dialog from Discover's card)", async () => {
      const { page } = averys;
      for (const size of ['desktop', 'phone'] as const) {
        await page.setViewportSize(size === 'desktop' ? DESKTOP : PHONE);
        await page.goto('/discover');
        await page.getByRole('article', { name: 'Drew, 77' }).getByRole('button', { name: 'View profile' }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toBeVisible();
        await expect(page.locator('.mate-spinner__ring')).toHaveCount(0);
        await sweep(page, `web member profile dialog @${size}`);
        await dialog.getByRole('button', { name: 'Close profile' }).click();
        await expect(dialog).toHaveCount(0);
      }
      await page.setViewportSize(DESKTOP);
    });

    await test.step('the navigation menu open on a phone', async () => {
      const { page } = averys;
      await page.setViewportSize(PHONE);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await sweep(page, 'web navigation menu open @phone');
      await page.keyboard.press('Escape');
      await page.setViewportSize(DESKTOP);
    });

    await test.step('the call screen and the incoming call overlay', async () => {
      const { page } = averys;
      await page.goto(`/chat/${blake.id}`);
      await page.getByRole('button', { name: 'Video Call' }).click();
      await expect(page).toHaveURL(new RegExp(`/call/${blake.id}$`));
      await expect(page.getByRole('group', { name: 'Call controls' })).toBeVisible();
      const overlay = blakes.page.getByRole('dialog', { name: 'Incoming Video Call' });
      await expect(overlay).toBeVisible();
      // Issue 25 point 1: the notification prompt (open on Blake's dashboard) holds back while a call
      // rings and on the call screen.
      await expect(page.getByRole('region', { name: 'Enable Notifications' })).toHaveCount(0);
      await expect(blakes.page.getByRole('region', { name: 'Enable Notifications' })).toHaveCount(0);
      // Only the overlay needs the call to ring (it rings out after 30 s; two sweeps took 31 s once on
      // a loaded CI machine): it is swept first, then Blake answers and the caller's call screen is
      // swept with the call under way, however long that takes.
      await sweep(blakes.page, 'web incoming call overlay @desktop');
      await overlay.getByRole('button', { name: 'Answer' }).click();
      await expect(blakes.page).toHaveURL(new RegExp(`/call/${avery.id}$`));
      await sweep(page, 'web /call/:userId @desktop');
      await page.getByRole('group', { name: 'Call controls' }).getByRole('button', { name: 'End call' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(overlay).toHaveCount(0);
    });

    await test.step("the match popup ('It's a Match!')", async () => {
      const { page } = averys;
      const realtime = watchRealtime(page);
      await page.goto('/dashboard');
      // The event reaches a connected socket only.
      await expect.poll(realtime.connected).toBe(1);
      expect((await call('POST', `/api/matches/like/${avery.id}`, casey)).body).toMatchObject({ matched: true });
      const dialog = page.getByRole('dialog', { name: "It's a Match!" });
      await expect(dialog).toContainText('You and Casey like each other.');
      await sweep(page, 'web match popup @desktop');
      await dialog.getByRole('button', { name: 'Keep Swiping' }).click();
    });
    await averys.context.close();
    await blakes.context.close();

    await test.step('the admin app', async () => {
      grantAdmin(admin.email);
      const { context, page } = await newPage(browser);
      await page.goto(adminUrl('/'));
      await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
      await sweep(page, 'admin / (Admin Sign In) @desktop');
      await signInToAdminApp(page, { email: admin.email, password: PASSWORD });
      for (const screen of ADMIN_ROUTES) await visit(page, screen, cast, adminUrl, 'admin');
      // A photo under review.
      await page.setViewportSize(DESKTOP);
      await page.goto(adminUrl('/admin/photos'));
      await page.getByRole('list', { name: 'Pending photos' }).getByRole('button').first().click();
      await expect(page.getByRole('heading', { name: 'Review Photo' })).toBeVisible();
      await sweep(page, 'admin /admin/photos (Review Photo) @desktop');
      await context.close();
    });
  } finally {
    await browser.close();
  }

  console.log(`[a11y] ${swept.length} screens swept: ${swept.join(', ')}`);
  expect(findings, findings.join('\n')).toEqual([]);
  expect(cspLists.flat()).toEqual([]);
});

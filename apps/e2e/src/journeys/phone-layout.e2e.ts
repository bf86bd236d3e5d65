import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { watchCspViolations } from '../support/csp';
import { createMember as createMemberIn, matchMembers, openFromMenu, signIn, suggestedIds, type Member, type MemberSpec } from '../support/members';

/**
 * Issue 26, phone layout: Discover's card with Pass, Rewind and Like fits a 390x844 and a 360x640
 * phone without scrolling (also with the notification prompt in its place above the deck), the
 * swipe hint is above the fold on a 1280x800 and 1280x900 desktop, the desktop sidebar stays in
 * view at the end of a long page, and a chat's composer stays on screen when a phone's keyboard
 * takes the lower part of the window.
 */

const PASSWORD = 'phone layout journey password 1';
/** A city and ages no other journey uses, so these members meet nobody else. */
const CITY = 'Fresno, CA';
const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
];
const DESKTOPS = [
  { width: 1280, height: 800 },
  { width: 1280, height: 900 },
];
/** A phone with its on-screen keyboard up: `interactive-widget=resizes-content` shrinks the window to this. */
const PHONE_WITH_KEYBOARD = { width: 390, height: 500 };
/** Spec 001 §3: the dismissal the app remembers; preset, the prompt stays away. */
const PROMPT_DISMISSED_KEY = 'notification_prompt_dismissed';
/** Enough messages that the conversation scrolls on a phone. */
const MESSAGES = 14;

const createMember = (spec: Omit<MemberSpec, 'city'>, hue: string): Promise<Member> =>
  createMemberIn({ ...spec, city: CITY }, hue, PASSWORD);

/** With E2E_SHOTS_DIR set, the journey leaves screenshots of the screens it passes (for review). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

const sizeName = ({ width, height }: { width: number; height: number }) => `${width}x${height}`;

/** Fails unless the whole box of `target` lies inside the window as laid out now. */
async function expectInsideViewport(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${what} is not laid out`);
  const where = `${what} at ${JSON.stringify(box)} in ${sizeName(viewport)}`;
  // Half a pixel for sub-pixel rounding of the layout.
  expect(box.x, where).toBeGreaterThanOrEqual(-0.5);
  expect(box.y, where).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, where).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height, where).toBeLessThanOrEqual(viewport.height + 0.5);
}

const promptOf = (page: Page) => page.getByRole('region', { name: 'Enable Notifications' });

/** Discover with a card showing, its photo loaded (the layout is final). */
/**
 * Discover with its first card's photo loaded: opened by its address, or through the app's menu
 * (`fromMenu`), as a member with the notification prompt open comes to it (it does not open there).
 */
async function openDiscover(page: Page, cardName: string, { fromMenu = false } = {}): Promise<Locator> {
  if (fromMenu) await openFromMenu(page, 'Discover');
  else await page.goto('/discover');
  const card = page.getByRole('article', { name: cardName });
  await expect(card).toBeVisible();
  await expect(card.getByRole('img').first()).toHaveJSProperty('complete', true);
  return card;
}

/** The card, Pass, Rewind and Like all inside the window, with the page not scrolled. */
async function expectDiscoverFits(page: Page, card: Locator): Promise<void> {
  const swipe = page.getByRole('group', { name: 'Swipe actions' });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expectInsideViewport(page, card, 'the card');
  for (const name of ['Pass', 'Rewind', 'Like']) {
    await expectInsideViewport(page, swipe.getByRole('button', { name }), name);
  }
  const positions = await Promise.all(
    ['Pass', 'Rewind', 'Like'].map(async (name) => {
      const box = await swipe.getByRole('button', { name }).boundingBox();
      return `${name} y=${Math.round(box?.y ?? -1)}-${Math.round((box?.y ?? 0) + (box?.height ?? 0))}`;
    }),
  );
  console.log(`phone-layout: ${sizeName(page.viewportSize() ?? { width: 0, height: 0 })} ${positions.join(', ')}`);
}

/** A member's own browser context at `viewport`, optionally with the notification prompt dismissed before. */
async function contextFor(browser: Browser, viewport: { width: number; height: number }, promptDismissed: boolean) {
  const context = await browser.newContext({ baseURL: process.env.E2E_WEB_URL, viewport });
  if (promptDismissed) {
    await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), PROMPT_DISMISSED_KEY);
  }
  return context;
}

test('Discover fits a 390x844 and a 360x640 phone with the prompt and without, the hint is above the fold on a desktop, the sidebar stays in view on a long page, and the chat composer stays above the keyboard', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [harper, indigo, jules] = await Promise.all([
    createMember({ name: 'Harper', age: 86, gender: 'female', seeks: 'male', ages: [85, 87] }, '#ad1457'),
    createMember({ name: 'Indigo', age: 86, gender: 'male', seeks: 'female', ages: [85, 87] }, '#283593'),
    createMember({ name: 'Jules', age: 86, gender: 'male', seeks: 'female', ages: [85, 87] }, '#2e7d32'),
  ]);
  await matchMembers(harper, jules);
  await expect.poll(() => suggestedIds(harper)).toEqual([indigo.id]);
  const cardName = 'Indigo, 86';

  // Discover on each phone: without the prompt, then with it in its place above the deck.
  for (const phone of PHONES) {
    for (const promptDismissed of [true, false]) {
      const context = await contextFor(browser, phone, promptDismissed);
      const page = await context.newPage();
      const violations = await watchCspViolations(page);
      await signIn(page, harper);
      // The prompt opens on the dashboard 3 s after load, and comes along to Discover.
      if (!promptDismissed) await expect(promptOf(page)).toBeVisible();
      const card = await openDiscover(page, cardName, { fromMenu: !promptDismissed });
      if (!promptDismissed) await expect(promptOf(page)).toBeVisible();
      await expectDiscoverFits(page, card);
      await shot(page, `discover-${sizeName(phone)}${promptDismissed ? '' : '-prompt'}`);
      expect(violations).toEqual([]);
      await context.close();
    }
  }

  // On a desktop the hint is above the fold too; the sidebar stays in view at the end of a long page.
  const desktop = await contextFor(browser, DESKTOPS[0], true);
  const page = await desktop.newPage();
  const violations = await watchCspViolations(page);
  await signIn(page, harper);
  for (const size of DESKTOPS) {
    await page.setViewportSize(size);
    const card = await openDiscover(page, cardName);
    await expectDiscoverFits(page, card);
    await expectInsideViewport(page, page.getByText('Swipe right to like • Swipe left to pass'), 'the swipe hint');
    await shot(page, `discover-${sizeName(size)}`);
  }
  await page.setViewportSize(DESKTOPS[0]);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: "Harper's Profile" })).toBeVisible();
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  // A long page: it scrolls well past one window.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(400);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  const box = await sidebar.boundingBox();
  expect(box?.y, `the sidebar at ${JSON.stringify(box)}`).toBeCloseTo(0, 0);
  await expectInsideViewport(page, sidebar, 'the sidebar');
  await expectInsideViewport(page, sidebar.getByRole('button', { name: 'Logout' }), 'Logout');
  await shot(page, 'profile-1280x800-scrolled');
  expect(violations).toEqual([]);
  await desktop.close();

  // A chat on a phone: the keyboard comes up over the lower part; the composer and the latest message stay on screen.
  const phone = await contextFor(browser, PHONES[0], true);
  const chat = await phone.newPage();
  const chatViolations = await watchCspViolations(chat);
  await signIn(chat, harper);
  await chat.goto(`/chat/${jules.id}`);
  const input = chat.getByRole('textbox', { name: 'Message' });
  const send = chat.getByRole('button', { name: 'Send message' });
  for (let n = 1; n <= MESSAGES; n++) {
    await input.fill(`Message number ${n} about the weekend`);
    await input.press('Enter');
  }
  const latest = chat.getByRole('log').getByText(`Message number ${MESSAGES} about the weekend`, { exact: true });
  await expect(latest).toBeVisible();
  await input.focus();
  await chat.setViewportSize(PHONE_WITH_KEYBOARD);
  await expect(input).toBeFocused();
  await expectInsideViewport(chat, input, 'the message box');
  await expectInsideViewport(chat, send, 'Send');
  // The conversation follows the smaller window: the latest message shows above the composer.
  const composer = chat.locator('form', { has: input });
  await expect
    .poll(async () => {
      const [message, form] = [await latest.boundingBox(), await composer.boundingBox()];
      return message && form ? form.y - (message.y + message.height) : -1;
    })
    .toBeGreaterThanOrEqual(0);
  await expectInsideViewport(chat, latest, 'the latest message');
  await shot(chat, 'chat-390x500-keyboard');
  expect(chatViolations).toEqual([]);
  await phone.close();
});

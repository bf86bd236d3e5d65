import { expect, test, type Page } from '@playwright/test';
import { watchCspViolations } from '../support/csp';
import { call, createMember as createMemberIn, signIn, suggestedIds, type Member, type MemberSpec } from '../support/members';
import { watchRealtime } from '../support/realtime';

const PASSWORD = 'discover journey password 1';
/** Both sides in one city: the card reads 'in your city'. */
const CITY = 'Chicago, IL';

/** A member Discover can suggest, in `CITY`. */
const createMember = (spec: Omit<MemberSpec, 'city'>, hue: string): Promise<Member> =>
  createMemberIn({ ...spec, city: CITY }, hue, PASSWORD);

/** A real pointer drag of the top card by `dx` pixels, in steps, as a hand does it. */
async function dragCard(page: Page, dx: number): Promise<void> {
  const box = await page.getByRole('article').boundingBox();
  if (!box) throw new Error('no card on screen');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 3;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + 8, { steps: 15 });
  await page.mouse.up();
}

test("two members like each other by dragging the card: the second sees 'It's a Match!', the first learns it live, Send Message opens the chat; the arrow keys like and pass", async ({
  page,
  browser,
}) => {
  const [alex, blair] = await Promise.all([
    createMember({ name: 'Alex', age: 44, gender: 'male', seeks: 'female', ages: [41, 43] }, '#1976d2'),
    createMember({ name: 'Blair', age: 42, gender: 'female', seeks: 'male', ages: [43, 45] }, '#c2185b'),
  ]);
  await expect.poll(() => suggestedIds(alex)).toEqual([blair.id]);
  await expect.poll(() => suggestedIds(blair)).toEqual([alex.id]);

  // Alex drags Blair's card right: a like, not yet a match.
  const violations = await watchCspViolations(page);
  const realtime = watchRealtime(page);
  await signIn(page, alex);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click();
  const blairCard = page.getByRole('article', { name: 'Blair, 42' });
  await expect(blairCard).toBeVisible();
  await expect(page.getByText('1 potential matches', { exact: true })).toBeVisible();
  await expect(blairCard.getByText(`${CITY} · in your city`)).toBeVisible();
  await expect(blairCard.getByText(/^\d{1,3}% Match$/)).toBeVisible();
  await expect(blairCard.getByRole('img', { name: 'Blair' })).toHaveJSProperty('complete', true);
  await expect(page.getByText('Swipe right to like • Swipe left to pass')).toBeVisible();
  await dragCard(page, 160);
  await expect(page.getByRole('heading', { name: 'No more matches' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect.poll(realtime.connected).toBe(1);

  // Blair drags Alex's card right: 'It's a Match!' on Blair's screen, and live on Alex's.
  const blairContext = await browser.newContext({
    baseURL: process.env.E2E_WEB_URL,
    viewport: { width: 390, height: 844 },
  });
  const blairPage = await blairContext.newPage();
  const blairViolations = await watchCspViolations(blairPage);
  await signIn(blairPage, blair);
  await blairPage.goto('/discover');
  await expect(blairPage.getByRole('article', { name: 'Alex, 44' })).toBeVisible();
  await dragCard(blairPage, 140);
  const blairDialog = blairPage.getByRole('dialog', { name: "It's a Match!" });
  await expect(blairDialog).toContainText('You and Alex like each other.');
  const alexDialog = page.getByRole('dialog', { name: "It's a Match!" });
  await expect(alexDialog).toContainText('You and Blair like each other.');

  await blairDialog.getByRole('button', { name: 'Send Message' }).click();
  await expect(blairPage).toHaveURL(new RegExp(`/chat/${alex.id}$`));
  await page.keyboard.press('Escape');
  await expect(alexDialog).toHaveCount(0);
  const alexMatches = await call<{ userId: string; name: string }[]>('GET', '/api/matches/my-matches', alex);
  expect(alexMatches.body).toEqual([expect.objectContaining({ userId: blair.id, name: 'Blair' })]);
  await blairContext.close();

  // The keyboard path, on two more members who fit Alex: ArrowRight likes, ArrowLeft passes.
  const [casey, drew] = await Promise.all([
    createMember({ name: 'Casey', age: 42, gender: 'female', seeks: 'male', ages: [43, 45] }, '#388e3c'),
    createMember({ name: 'Drew', age: 42, gender: 'female', seeks: 'male', ages: [43, 45] }, '#f57c00'),
  ]);
  await expect.poll(async () => (await suggestedIds(alex)).sort()).toEqual([casey.id, drew.id].sort());
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('2 potential matches', { exact: true })).toBeVisible();
  const firstName = (await page.getByRole('article').getAttribute('aria-label'))?.split(',')[0];
  const [liked, passed] = firstName === 'Casey' ? [casey, drew] : [drew, casey];
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('article', { name: `${passed.name}, 42` })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('heading', { name: 'No more matches' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rewind' })).toHaveAttribute('aria-disabled', 'false');

  // On the server: one like more, the pass recorded, and neither comes back on reload.
  await expect
    .poll(async () => (await call('GET', '/api/matches/stats', alex)).body)
    .toEqual({ matches: 1, likesReceived: 1, likesSent: 2 });
  expect((await call('GET', '/api/matches/stats', liked)).body).toMatchObject({ likesReceived: 1 });
  expect((await call('GET', '/api/matches/stats', passed)).body).toMatchObject({ likesReceived: 0 });
  expect(await suggestedIds(alex)).toEqual([]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No more matches' })).toBeVisible();
  await expect(page.getByText('0 potential matches', { exact: true })).toBeVisible();

  // The dashboard's stats are the real numbers.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard', exact: true })
    .click();
  const stats = page.locator('.dashboard__counts');
  await expect(stats.locator('div', { hasText: 'Matches' }).getByRole('definition')).toHaveText('1');
  await expect(stats.locator('div', { hasText: 'Likes' }).getByRole('definition')).toHaveText('1');
  // The home's new matches: Blair, one tap from the chat (issue 25).
  await expect(
    page.getByRole('region', { name: 'New matches' }).getByRole('link', { name: 'Chat with Blair' }),
  ).toHaveAttribute('href', `/chat/${blair.id}`);
  // Who Alex liked sees Alex among who liked them, until they answer.
  const likedLikes = await call<{ total: number; likers: { user: { id: string } }[] }>(
    'GET',
    '/api/matches/likes-received',
    liked,
  );
  expect(likedLikes.body).toMatchObject({ total: 1, likers: [{ user: { id: alex.id } }] });

  expect(violations).toEqual([]);
  expect(blairViolations).toEqual([]);
});

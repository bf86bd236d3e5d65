import { expect, test, type Page } from '@playwright/test';
import { SafetyMessages } from '@mate/contracts';
import { watchCspViolations } from '../support/csp';
import {
  call,
  createMember,
  matchMembers,
  signIn,
  suggestedIds,
  type Member,
  type MemberSpec,
} from '../support/members';

const PASSWORD = 'safety web journey password 1';
/** A city and ages no other journey uses, so only these members ever fit each other. */
const CITY = 'Denver, CO';

const member = (spec: Omit<MemberSpec, 'city'>, hue: string): Promise<Member> =>
  createMember({ ...spec, city: CITY }, hue, PASSWORD);

/** With E2E_SHOTS_DIR set, the journey leaves screenshots of the screens it passes (for review). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

async function conversationIds(m: Member): Promise<string[]> {
  const res = await call<{ userId: string }[]>('GET', `/api/chat/conversations?t=${Date.now()}`, m);
  return res.status === 200 ? res.body.map((c) => c.userId) : [];
}

test("from chat, block → 'User Blocked' → the conversation is gone; Safety lists the member with a Blocked date and Unblock removes it; a report from the Discover card shows 'Report Submitted'", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const [quinn, riley, sage] = await Promise.all([
    member({ name: 'Quinn', age: 67, gender: 'male', seeks: 'female', ages: [66, 68] }, '#5e35b1'),
    member({ name: 'Riley', age: 67, gender: 'female', seeks: 'male', ages: [66, 68] }, '#00838f'),
    member({ name: 'Sage', age: 67, gender: 'female', seeks: 'male', ages: [66, 68] }, '#ef6c00'),
  ]);
  await matchMembers(quinn, riley);
  await expect.poll(() => suggestedIds(quinn)).toEqual([sage.id]);

  const violations = await watchCspViolations(page);
  await signIn(page, quinn);
  const nav = page.getByRole('navigation', { name: 'Main' });

  // Discover (first: once Riley is unblocked, matching may suggest Riley again): Sage's card has a
  // Report flag; the report goes in and the card stays.
  await nav.getByRole('link', { name: 'Discover' }).click();
  const card = page.getByRole('article', { name: 'Sage, 67' });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Report' }).click();
  const reportDialog = page.getByRole('dialog', { name: 'Report Sage' });
  await expect(reportDialog.getByRole('combobox', { name: 'Reason' })).toHaveValue('inappropriate_content');
  await reportDialog.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Fake profile' });
  await reportDialog
    .getByRole('textbox', { name: 'Details (optional)' })
    .fill('Photos look like a stock model.');
  await shot(page, 'discover-1280-report-dialog');
  await reportDialog.getByRole('button', { name: 'Submit Report' }).click();
  const submitted = page.getByRole('dialog', { name: 'Report Submitted' });
  await expect(submitted).toContainText('Thank you for helping keep our community safe');
  await shot(page, 'discover-1280-report-submitted');
  await expect(submitted).toHaveCount(0);
  await expect(card).toBeVisible();
  // The report is on record: a second one within 24 hours is refused.
  expect(
    await call('POST', `/api/safety/report/${sage.id}`, { ...quinn, body: { reason: 'spam' } }),
  ).toMatchObject({
    status: 409,
    body: { error: SafetyMessages.alreadyReported },
  });

  // Quinn opens the conversation with Riley from Messages.
  await nav.getByRole('link', { name: /^Messages/ }).click();
  await page.getByRole('link', { name: /Riley/ }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${riley.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Riley' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();

  // Block, with a reason, from the chat's safety menu.
  await page.getByRole('button', { name: 'Safety options' }).click();
  await page.getByRole('menuitem', { name: 'Block' }).click();
  const blockDialog = page.getByRole('alertdialog', { name: 'Block Riley?' });
  await expect(blockDialog).toContainText("You won't see each other anymore");
  await blockDialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('Made me uncomfortable');
  await shot(page, 'chat-1280-block-dialog');
  await blockDialog.getByRole('button', { name: 'Block' }).click();
  const blocked = page.getByRole('dialog', { name: 'User Blocked' });
  await expect(blocked).toContainText("You won't see each other anymore");
  // It shows for 1.5 s (the delay itself is the unit tests' business) before the page reloads.
  expect(page.url()).toMatch(new RegExp(`/chat/${riley.id}$`));
  await shot(page, 'chat-1280-user-blocked');

  // Then the page reloads onto Messages, where the conversation no longer shows.
  await expect(page).toHaveURL(/\/matches$/);
  await expect(blocked).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No matches yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Riley/ })).toHaveCount(0);
  // And on a real reload too; Riley has lost the conversation as well.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No matches yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Riley/ })).toHaveCount(0);
  expect(await conversationIds(riley)).not.toContain(quinn.id);

  // The Safety screen lists Riley with the day of the block; Unblock takes the entry away.
  await nav.getByRole('link', { name: 'Safety', exact: true }).click();
  await expect(page).toHaveURL(/\/safety$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Safety & Privacy' })).toBeVisible();
  const today = await page.evaluate(() => new Date().toLocaleDateString(undefined, { dateStyle: 'medium' }));
  const entry = page.getByRole('listitem', { name: 'Riley' });
  await expect(entry).toContainText(`Blocked ${today}`);
  await expect(page.getByText('Profile Visibility')).toBeVisible();
  await expect(page.getByText('Additional privacy controls coming soon')).toBeVisible();
  await expect(
    page.getByText('If you are in immediate danger, call your local emergency number.'),
  ).toBeVisible();
  await shot(page, 'safety-1280-blocked');
  // On a phone the entry keeps its Unblock button in reach.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(entry.getByRole('button', { name: 'Unblock Riley' })).toBeInViewport();
  await shot(page, 'safety-390-blocked');
  await entry.getByRole('button', { name: 'Unblock Riley' }).click();
  await expect(entry).toHaveCount(0);
  await expect(page.getByText("You haven't blocked anyone")).toBeVisible();
  await page.reload();
  await expect(page.getByText("You haven't blocked anyone")).toBeVisible();
  expect((await call('GET', '/api/safety/blocked', quinn)).body).toEqual([]);
  // Unblocking does not bring the match back.
  expect((await call('GET', '/api/matches/my-matches', quinn)).body).toEqual([]);

  expect(violations).toEqual([]);
});

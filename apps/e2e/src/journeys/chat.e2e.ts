import { expect, test, type Page } from '@playwright/test';
import { watchCspViolations } from '../support/csp';
import { call, createMember, matchMembers, signIn } from '../support/members';
import { watchRealtime } from '../support/realtime';

const PASSWORD = 'chat journey password 1';
const CITY = 'Chicago, IL';

/** With E2E_SHOTS_DIR set, the journey leaves screenshots of the screens it passes (for review). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

test("two matched members chat live: typing..., delivery, '✓✓ Read', and a message sent while one is offline arrives when they return", async ({
  page: avery,
  browser,
}) => {
  test.setTimeout(150_000);
  // Ages no other journey's members want, so only these two ever fit each other.
  const [a, b] = await Promise.all([
    createMember(
      { name: 'Avery', age: 63, gender: 'male', seeks: 'female', ages: [60, 62], city: CITY },
      '#00796b',
      PASSWORD,
    ),
    createMember(
      { name: 'Blake', age: 61, gender: 'female', seeks: 'male', ages: [62, 64], city: CITY },
      '#7b1fa2',
      PASSWORD,
    ),
  ]);
  await matchMembers(a, b);

  // Avery on a desktop, Blake on a phone.
  const averyViolations = await watchCspViolations(avery);
  const averyRealtime = watchRealtime(avery);
  const blakeContext = await browser.newContext({
    baseURL: process.env.E2E_WEB_URL,
    viewport: { width: 390, height: 844 },
  });
  const blake = await blakeContext.newPage();
  const blakeViolations = await watchCspViolations(blake);
  const blakeRealtime = watchRealtime(blake);
  await Promise.all([signIn(avery, a), signIn(blake, b)]);

  // Both open the (empty) conversation from Messages.
  await avery
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Messages/ })
    .click();
  const blakeRow = avery.getByRole('link', { name: /Blake/ });
  await expect(blakeRow).toContainText('Start a conversation');
  await shot(avery, 'messages-1280-new-match');
  await blakeRow.click();
  await expect(avery).toHaveURL(new RegExp(`/chat/${b.id}$`));
  await blake.goto(`/chat/${a.id}`);
  for (const page of [avery, blake]) {
    await expect(page.getByRole('heading', { name: 'No messages yet' })).toBeVisible();
    await expect(page.getByText('Say hi to start the conversation!')).toBeVisible();
  }
  await expect(avery.getByRole('heading', { level: 1, name: 'Blake' })).toBeVisible();
  await expect(blake.getByRole('heading', { level: 1, name: 'Avery' })).toBeVisible();
  await expect.poll(averyRealtime.connected).toBe(1);
  await expect.poll(blakeRealtime.connected).toBe(1);
  await shot(blake, 'chat-390-empty');

  // Avery types: Blake sees 'typing...', which goes once Avery stops for a second.
  const averyInput = avery.getByRole('textbox', { name: 'Message' });
  await averyInput.pressSequentially('Hi Blake! <b>Coffee</b> on Saturday?', { delay: 20 });
  await expect(blake.getByText('typing...', { exact: true })).toBeVisible();
  await expect(blake.getByText('typing...', { exact: true })).toHaveCount(0);

  // Blake goes back to Messages; Avery sends; Blake's list shows it live, unread.
  await blake.getByRole('link', { name: 'Back to Messages' }).click();
  const averyRow = blake.getByRole('link', { name: /Avery/ });
  await expect(averyRow).toContainText('Start a conversation');
  await averyInput.press('Enter');
  await expect(averyInput).toHaveValue('');
  const first = avery.getByRole('log').getByRole('listitem').filter({ hasText: 'Coffee' });
  await expect(first).toContainText('✓ Sent');
  // Content is text: the tags show as typed.
  await expect(first.getByText('Hi Blake! <b>Coffee</b> on Saturday?', { exact: true })).toBeVisible();
  await expect(averyRow).toContainText('Hi Blake! <b>Coffee</b> on Saturday?');
  await expect(averyRow).toContainText('1 unread message');
  await expect(averyRow).toContainText(/Just now|1m ago/);
  await expect(blake.locator('.app-topbar__badge')).toHaveText('1');
  await shot(blake, 'messages-390-unread');

  // Blake opens it: it is read, and Avery sees '✓✓ Read'.
  await averyRow.click();
  await expect(
    blake.getByRole('log').getByText('Hi Blake! <b>Coffee</b> on Saturday?', { exact: true }),
  ).toBeVisible();
  await expect(first).toContainText('✓✓ Read');
  await expect(blake.locator('.app-topbar__badge')).toHaveCount(0);
  const blakeInput = blake.getByRole('textbox', { name: 'Message' });
  await blakeInput.fill('Saturday works.');
  await blakeInput.press('Shift+Enter');
  await blakeInput.pressSequentially('10am at the corner place?');
  await blakeInput.press('Enter');
  const reply = avery.getByRole('log').getByRole('listitem').filter({ hasText: 'Saturday works.' });
  await expect(reply).toContainText('10am at the corner place?');
  await expect(
    blake.getByRole('log').getByRole('listitem').filter({ hasText: 'Saturday works.' }),
  ).toContainText('✓✓ Read');
  await shot(avery, 'chat-1280-conversation');
  await shot(blake, 'chat-390-conversation');

  // The safety menu asks before it blocks (the safety journey blocks for real); Cancel keeps the chat.
  await avery.getByRole('button', { name: 'Safety options' }).click();
  await avery.getByRole('menuitem', { name: 'Block' }).click();
  const blockDialog = avery.getByRole('alertdialog', { name: 'Block Blake?' });
  await expect(blockDialog).toContainText("You won't see each other anymore");
  await shot(avery, 'chat-1280-safety-dialog');
  await blockDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(blockDialog).toHaveCount(0);
  await expect(averyInput).toBeEnabled();

  // Blake loses the network: the chat says so. Avery sends meanwhile; Blake writes one too.
  await blakeContext.setOffline(true);
  await expect(blake.getByText('Socket not connected', { exact: true })).toBeVisible();
  await averyInput.fill('Perfect, see you there!');
  await averyInput.press('Enter');
  const whileAway = avery
    .getByRole('log')
    .getByRole('listitem')
    .filter({ hasText: 'Perfect, see you there!' });
  await expect(whileAway).toContainText('✓ Sent');
  await blakeInput.fill('Written on the train');
  await blakeInput.press('Enter');
  const pending = blake.getByRole('log').getByRole('listitem').filter({ hasText: 'Written on the train' });
  await expect(pending).toContainText('Sending...');
  await expect(blake.getByRole('log').getByText('Perfect, see you there!')).toHaveCount(0);
  await shot(blake, 'chat-390-offline');

  // Back online: Blake's app reconnects, fetches what it missed and sends what waited.
  await blakeContext.setOffline(false);
  await expect(blake.getByText('Socket not connected', { exact: true })).toHaveCount(0, { timeout: 30_000 });
  await expect(blake.getByRole('log').getByText('Perfect, see you there!', { exact: true })).toBeVisible();
  await expect(pending).toContainText('✓✓ Read');
  await expect(
    avery.getByRole('log').getByRole('listitem').filter({ hasText: 'Written on the train' }),
  ).toBeVisible();
  await expect(whileAway).toContainText('✓✓ Read');
  // Each message exactly once, in order, on both sides.
  const expected = [
    'Hi Blake! <b>Coffee</b> on Saturday?',
    'Saturday works.\n10am at the corner place?',
    'Perfect, see you there!',
    'Written on the train',
  ];
  for (const page of [avery, blake]) {
    await expect(page.getByRole('log').locator('.chat-bubble__text')).toHaveText(expected);
  }
  await blake.getByRole('link', { name: 'Back to Messages' }).click();
  await expect(blake.getByRole('link', { name: /Avery/ })).toContainText('Written on the train');
  await shot(blake, 'messages-390-after');

  // The server holds the same four, and Avery's dashboard counts the conversation.
  const page = await call<{ messages: { content: string; seq: number }[] }>(
    'GET',
    `/api/chat/conversation/${b.id}?limit=50`,
    a,
  );
  expect(page.body.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  await avery
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard', exact: true })
    .click();
  await expect(
    avery.locator('.dashboard__counts').locator('div', { hasText: 'Messages' }).getByRole('definition'),
  ).toHaveText('1');
  await shot(avery, 'dashboard-1280');

  expect(averyViolations).toEqual([]);
  expect(blakeViolations).toEqual([]);
  await blakeContext.close();
});

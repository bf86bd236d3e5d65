import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { MAILDEV } from '../support/auth-flow';
import { watchCspViolations } from '../support/csp';
import { tokenOf, uniqueEmail, waitForLink } from '../support/mailbox';
import { watchRealtime } from '../support/realtime';

const GATEWAY = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:3000';
const PASSWORD = 'discover journey password 1';
/** Both sides in one city: the card reads 'in your city'. */
const CITY = 'Chicago, IL';

interface Member {
  id: string;
  name: string;
  email: string;
  token: string;
}

interface MemberSpec {
  name: string;
  age: number;
  gender: 'male' | 'female';
  /** Interested in. */
  seeks: 'male' | 'female';
  /** The ages this member wants; narrow, so members of other journeys never fit. */
  ages: [number, number];
}

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${GATEWAY}${path}`, {
    method,
    headers: {
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function portrait(hue: string): Promise<Blob> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000">
    <rect width="800" height="1000" fill="${hue}"/><circle cx="400" cy="420" r="200" fill="#f3d2c1"/></svg>`;
  return new Blob([await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()], { type: 'image/jpeg' });
}

/**
 * A member Discover can suggest, set up through the gateway as the app would: signed up, verified
 * from the real email, signed in, one photo, onboarding completed in `CITY`, match preferences.
 */
async function createMember(spec: MemberSpec, hue: string): Promise<Member> {
  const email = uniqueEmail(spec.name.toLowerCase());
  expect(
    (await call('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: spec.name } }))
      .status,
  ).toBe(201);
  const link = await waitForLink(MAILDEV, email, '/verify-email');
  expect((await call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } })).status).toBe(
    200,
  );
  const login = await call<{ token: string; user: { id: string } }>('POST', '/api/auth/login', {
    body: { email, password: PASSWORD },
  });
  expect(login.status).toBe(200);
  const member = { id: login.body.user.id, name: spec.name, email, token: login.body.token };
  // profile-service learns of the verification through the user.verified event.
  await expect
    .poll(
      async () =>
        (await call<{ isVerified?: boolean }>('GET', `/api/profile/me?t=${Date.now()}`, member)).body
          ?.isVerified,
    )
    .toBe(true);

  const form = new FormData();
  form.append('photo', await portrait(hue), `${spec.name}.jpg`);
  expect(
    (await call('POST', '/api/photos/upload?context=onboarding', { ...member, body: form })).status,
  ).toBe(201);
  const [minAge, maxAge] = spec.ages;
  const preferences = { minAge, maxAge, maxDistance: 50, genderPreference: [spec.seeks] };
  expect((await call('PUT', '/api/preferences/me', { ...member, body: preferences })).status).toBe(200);
  const onboarding = {
    name: spec.name,
    age: spec.age,
    gender: spec.gender,
    bio: `${spec.name} likes long walks, good coffee and honest people.`,
    interests: ['Hiking', 'Coffee', 'Music'],
    lookingFor: 'long-term',
    location: CITY,
  };
  expect(
    (await call('POST', '/api/profile/me/complete-onboarding', { ...member, body: onboarding })).status,
  ).toBe(200);
  return member;
}

/** The ids matching-service suggests to `member` now (it learns of profiles through events). */
async function suggestedIds(member: Member): Promise<string[]> {
  const res = await call<{ user: { id: string } }[]>('GET', '/api/matches/suggestions?limit=50', member);
  return res.status === 200 ? res.body.map((s) => s.user.id) : [];
}

async function signIn(page: Page, member: Member): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

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

  expect(violations).toEqual([]);
  expect(blairViolations).toEqual([]);
});

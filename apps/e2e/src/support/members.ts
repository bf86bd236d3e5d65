import { expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import { MAILDEV } from './auth-flow';
import { tokenOf, uniqueEmail, waitForLink } from './mailbox';

/** The gateway of the platform under test. */
export const GATEWAY = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:3000';
/** How long a new member's verification may take to reach profile-service (a set-up step). */
const VERIFIED_PROPAGATION_TIMEOUT_MS = 20_000;

export interface Member {
  id: string;
  name: string;
  email: string;
  password: string;
  token: string;
}

export interface MemberSpec {
  name: string;
  age: number;
  gender: 'male' | 'female';
  /** Interested in. */
  seeks: 'male' | 'female';
  /** The ages this member wants; narrow, so members of other journeys never fit. */
  ages: [number, number];
  /** Onboarding location, 'City, State/Country'. */
  city: string;
}

/** One call to the gateway, as the app makes it. */
export async function call<T = Record<string, unknown>>(
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
 * A member set up through the gateway as the app would: signed up, verified from the real email,
 * signed in, one photo, onboarding completed in `spec.city`, match preferences.
 */
export async function createMember(spec: MemberSpec, hue: string, password: string): Promise<Member> {
  const email = uniqueEmail(spec.name.toLowerCase());
  expect(
    (await call('POST', '/api/auth/register', { body: { email, password, name: spec.name } })).status,
  ).toBe(201);
  const link = await waitForLink(MAILDEV, email, '/verify-email');
  expect((await call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } })).status).toBe(
    200,
  );
  const login = await call<{ token: string; user: { id: string } }>('POST', '/api/auth/login', {
    body: { email, password },
  });
  expect(login.status).toBe(200);
  const member: Member = {
    id: login.body.user.id,
    name: spec.name,
    email,
    password,
    token: login.body.token,
  };
  // profile-service learns of the verification through the user.verified event. No promise of
  // the product is timed here: 5 s was once too short seconds after the platform started (ten
  // sign-ups at once) and right after the member-data spec restarted profile-service.
  await expect
    .poll(
      async () =>
        (await call<{ isVerified?: boolean }>('GET', `/api/profile/me?t=${Date.now()}`, member)).body
          ?.isVerified,
      { timeout: VERIFIED_PROPAGATION_TIMEOUT_MS },
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
    location: spec.city,
  };
  expect(
    (await call('POST', '/api/profile/me/complete-onboarding', { ...member, body: onboarding })).status,
  ).toBe(200);
  return member;
}

/** The ids matching-service suggests to `member` now (it learns of profiles through events). */
export async function suggestedIds(member: Member): Promise<string[]> {
  const res = await call<{ user: { id: string } }[]>('GET', '/api/matches/suggestions?limit=50', member);
  return res.status === 200 ? res.body.map((s) => s.user.id) : [];
}

/** Waits until matching suggests `a` and `b` to each other (it learns of profiles through events). */
export async function mutuallySuggested(a: Member, b: Member): Promise<void> {
  await expect.poll(() => suggestedIds(a)).toContain(b.id);
  await expect.poll(() => suggestedIds(b)).toContain(a.id);
}

/**
 * Makes `a` and `b` a match (each likes the other once matching suggests them to each other). The
 * match is usable the moment the like answers (issue 27, docs/adr/0029-match-propagation.md): each
 * member's conversation page opens at once, asked once and never polled, although match.created may
 * not have reached chat-service yet; then both list the conversation.
 */
export async function matchMembers(a: Member, b: Member): Promise<void> {
  await mutuallySuggested(a, b);
  expect((await call('POST', `/api/matches/like/${b.id}`, a)).body).toMatchObject({ matched: false });
  expect((await call('POST', `/api/matches/like/${a.id}`, b)).body).toMatchObject({ matched: true });
  for (const [member, other] of [
    [b, a],
    [a, b],
  ] as const) {
    expect((await call('GET', `/api/chat/conversation/${other.id}`, member)).status).toBe(200);
  }
  for (const [member, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const list = await call<{ userId: string }[]>('GET', '/api/chat/conversations', member);
    expect(list.body?.map((c) => c.userId)).toContain(other.id);
  }
}

/** Signs in on the sign-in screen and lands on the dashboard. */
export async function signIn(page: Page, member: Member): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Opens a screen through the app's Main navigation, without a reload (what the app holds in memory,
 * an open notification prompt for one, stays); on a phone the navigation is behind the menu.
 */
export async function openFromMenu(page: Page, link: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Open menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
}

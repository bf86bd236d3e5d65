import { expect, type Page } from '@playwright/test';
import { waitForLink } from './mailbox';

export const MAILDEV = process.env.E2E_MAILDEV_URL ?? 'http://127.0.0.1:1080';

/** The path part of an emailed link, to open it on the app under test. */
export const pathOf = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');

export interface NewMember {
  email: string;
  password: string;
  /** Filled on the sign-up form when given. */
  name?: string;
  age?: string;
}

/**
 * From the sign-in screen (the page is already on `/`): creates an account, opens the emailed
 * verification link, signs in and lands on `/onboarding`.
 */
export async function signUpVerifyAndSignIn(page: Page, member: NewMember): Promise<void> {
  const { email, password } = member;
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  if (member.name !== undefined) await page.getByLabel('Name').fill(member.name);
  if (member.age !== undefined) await page.getByLabel('Age').fill(member.age);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page).toHaveURL(/\/verify-email-prompt$/);
  await page.goto(pathOf(await waitForLink(MAILDEV, email, '/verify-email')));
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
}

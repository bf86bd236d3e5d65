import { expect, test } from '@playwright/test';
import { MAILDEV, pathOf, signUpVerifyAndSignIn } from '../support/auth-flow';
import { watchCspViolations } from '../support/csp';
import { uniqueEmail, waitForLink } from '../support/mailbox';

test('the current address is told of an email change and cancels it from the link; the new address can no longer confirm it', async ({ page }) => {
  const violations = await watchCspViolations(page);
  const email = uniqueEmail('owner');
  const attackerEmail = uniqueEmail('taker');
  const password = 'email change password 1';

  await page.goto('/');
  await signUpVerifyAndSignIn(page, { email, password });
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Someone with this session asks to move the account to their own address.
  await page.goto('/settings/account');
  await page.getByLabel('New Email Address').fill(attackerEmail);
  await page.getByRole('button', { name: 'Change Email' }).click();
  await expect(page.getByText(/We sent a verification link to your new email address/)).toBeVisible();

  // The owner's inbox gets the notice with a cancellation link, and uses it.
  const cancelLink = await waitForLink(MAILDEV, email, '/cancel-email-change');
  const confirmLink = await waitForLink(MAILDEV, attackerEmail, '/verify-email-change');
  await page.goto(pathOf(cancelLink));
  await expect(page.getByRole('heading', { name: 'Email Change Cancelled' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset Password' })).toBeVisible();

  // The same link does not work twice.
  await page.goto(pathOf(cancelLink));
  await expect(page.getByRole('heading', { name: 'Cancellation Failed' })).toBeVisible();
  await expect(page.getByText('This cancellation link is invalid or has expired.')).toBeVisible();

  // The other address can no longer take the account.
  await page.goto(pathOf(confirmLink));
  await expect(page.getByRole('heading', { name: 'Email Change Failed' })).toBeVisible();
  await page.goto('/settings/account');
  await expect(page.getByText(`Current email: ${email}`)).toBeVisible();

  expect(violations).toEqual([]);
});

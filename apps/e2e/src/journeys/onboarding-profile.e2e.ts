import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { signUpVerifyAndSignIn } from '../support/auth-flow';
import { watchCspViolations } from '../support/csp';
import { uniqueEmail } from '../support/mailbox';

const GATEWAY = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:3000';
const WORK_DIR = path.resolve(__dirname, '../../../../dist/e2e/uploads');

/** A real JPEG from a camera-like gradient, written to disk for the file chooser. */
async function makePhoto(name: string, hue: string): Promise<string> {
  mkdirSync(WORK_DIR, { recursive: true });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${hue}"/><stop offset="1" stop-color="#222"/></linearGradient></defs>
    <rect width="900" height="1200" fill="url(#g)"/><circle cx="450" cy="480" r="220" fill="#f3d2c1"/>
    <rect x="230" y="760" width="440" height="440" rx="200" fill="#f3d2c1"/></svg>`;
  const file = path.join(WORK_DIR, `${name}.jpg`);
  writeFileSync(file, await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
  return file;
}

async function photoIds(page: Page): Promise<string[]> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const res = await fetch(`${GATEWAY}/api/photos`, { headers: { authorization: `Bearer ${token}` } });
  const photos = (await res.json()) as { id: string; order: number; isPrimary: boolean }[];
  return photos.sort((a, b) => a.order - b.order).map((p) => p.id);
}

test('a new member completes onboarding with a photo, edits the profile, reorders photos, and sets preferences and filters', async ({ page }) => {
  // Every screen on the way runs under the web app's strict CSP (issue 7 item 9).
  const violations = await watchCspViolations(page);
  const email = uniqueEmail('onboard');
  await page.goto('/');
  await signUpVerifyAndSignIn(page, { email, password: 'onboarding password 1' });

  // Welcome → Basic Info, with the under-18 rule.
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Name').fill('Morgan');
  await page.getByLabel('Age').fill('17');
  await page.getByLabel('Gender').selectOption('non-binary');
  await expect(page.getByText('You must be 18 or older to use the product')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByLabel('Age').fill('27');
  await expect(page.getByText('You must be 18 or older to use the product')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();

  // Photo: a real upload through the gateway to profile-service.
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByLabel('Upload photo').setInputFiles(await makePhoto('first', '#c2185b'));
  await expect(page.getByRole('img', { name: 'Your photo' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your photo' })).toHaveJSProperty('complete', true);
  expect(await page.getByRole('img', { name: 'Your photo' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Next' }).click();

  // About You.
  await page.getByLabel('Bio').fill('Weekend hiker, weekday coder, always up for good coffee.');
  await page.getByRole('button', { name: 'Travel', exact: true }).click();
  await page.getByLabel('Add your own').fill('Board games');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Remove Board games' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();

  // Preferences, then Complete → /discover.
  await page.getByLabel('Looking For').selectOption('long-term');
  // The place list offers the places the server knows as she types (issue 25); she picks hers.
  const location = page.getByRole('combobox', { name: 'Location' });
  await location.fill('Chicag');
  await page.getByRole('option', { name: /^Chicago, / }).first().click();
  await expect(location).toHaveValue(/^Chicago, /);
  await expect(page.getByRole('listbox')).toBeHidden();
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page).toHaveURL(/\/discover$/);

  // Profile: the onboarding answers are there; edit it.
  await page.goto('/profile');
  await expect(page.getByText('1/6 photos uploaded')).toBeVisible();
  await expect(page.getByText('Weekend hiker, weekday coder, always up for good coffee.')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByLabel('Occupation').fill('Engineer');
  await page.getByLabel('Height').fill('178');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText('Engineer')).toBeVisible();
  await expect(page.getByText(/178/).first()).toBeVisible();

  // Two more photos, then drag the first to the end.
  await page.getByLabel('Upload photo').setInputFiles(await makePhoto('second', '#1976d2'));
  await expect(page.getByText('2/6 photos uploaded')).toBeVisible();
  await page.getByLabel('Upload photo').setInputFiles(await makePhoto('third', '#388e3c'));
  await expect(page.getByText('3/6 photos uploaded')).toBeVisible();
  const before = await photoIds(page);
  expect(before).toHaveLength(3);

  // A real pointer drag: press on photo 1's handle, move past the activation distance, travel in
  // steps onto photo 3, release.
  const handle = page.getByRole('button', { name: 'Reorder photo 1' });
  await handle.scrollIntoViewIfNeeded();
  const from = await handle.boundingBox();
  const to = await page.getByRole('listitem', { name: 'Photo 3' }).boundingBox();
  if (!from || !to) throw new Error('photo grid not laid out');
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  const end = { x: to.x + to.width * 0.75, y: to.y + to.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 10, start.y + 2, { steps: 3 });
  await page.waitForTimeout(100);
  await page.mouse.move(end.x, end.y, { steps: 25 });
  await page.waitForTimeout(200);
  await page.mouse.up();
  await expect.poll(() => photoIds(page)).toEqual([before[1], before[2], before[0]]);

  // Set another photo as primary: exactly one Primary badge, on that photo.
  const tiles = page.getByRole('list', { name: 'Your photos' }).getByRole('listitem');
  await tiles.nth(1).getByRole('button', { name: 'Set as primary' }).click();
  await expect(tiles.nth(1).getByText('Primary', { exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your photos' }).getByText('Primary', { exact: true })).toHaveCount(1);

  // Delete one, after the confirmation.
  await tiles.nth(2).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Photo' });
  await expect(confirm.getByText('Are you sure you want to delete this photo?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('2/6 photos uploaded')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: /Profile \d+% complete/ })).toBeVisible();

  // Match preferences.
  await page.goto('/preferences');
  await page.getByLabel('Minimum age').fill('24');
  await page.getByLabel('Maximum age').fill('38');
  await page.getByRole('button', { name: 'Female', exact: true }).click();
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page.getByText('Preferences saved successfully!')).toBeVisible();

  // Filter preferences, opened from the navigation: success is an alert, then back one step.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Filters' }).click();
  await expect(page).toHaveURL(/\/settings\/filters$/);
  await page.getByRole('group', { name: 'Smoking' }).getByRole('button', { name: 'Never', exact: true }).click();
  // Accepted by the handler the moment it opens (an alert blocks the page until it is answered).
  const alert = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
  await page.getByRole('button', { name: 'Save Filters' }).click();
  expect(await alert).toBe('Filter preferences saved successfully!');
  await expect(page).toHaveURL(/\/preferences$/);

  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const filters = await (await fetch(`${GATEWAY}/api/profile/me/preferences`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(filters).toMatchObject({ minAge: 24, maxAge: 38, genderPreference: ['female'], smokingPreference: ['never'] });
  expect(violations).toEqual([]);
});

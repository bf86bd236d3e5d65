import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createMember, signIn } from '../support/members';

/**
 * Issue 26, "installable app": the member app has a valid, linked web app manifest with icons
 * that load, its service worker controls the page, and with the network cut after a first visit
 * the app still opens (from the worker's precache) and says it is offline. Never an API answer in
 * the worker's caches.
 */

const PHONE = { width: 390, height: 844 };
const PASSWORD = 'installable journey password 1';

interface ManifestIcon {
  src: string;
  sizes: string;
  type?: string;
  purpose?: string;
}

/** Every URL held in the page's Cache Storage (the worker's precache). */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });

const offlineBanner = (page: Page) => page.getByRole('status').filter({ hasText: "You're offline" });

test.use({ viewport: PHONE });

test('the member app installs (manifest, icons, service worker) and opens offline saying so', async ({ page }) => {
  await page.goto('/');

  // The manifest: linked, served as a manifest, with what an install needs.
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBe('/manifest.webmanifest');
  const manifestResponse = await page.request.get('/manifest.webmanifest');
  expect(manifestResponse.status()).toBe(200);
  expect(manifestResponse.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await manifestResponse.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
  expect(manifest).toMatchObject({
    name: 'Mate · AI-Driven Dating Platform',
    short_name: 'Mate',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: '#c2185b',
  });
  expect(manifest['background_color']).toEqual(expect.any(String));
  expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest['theme_color']);

  // Its icons, and the apple-touch-icon, load as PNGs of the size they claim.
  const required = [
    { sizes: '192x192', purpose: 'any' },
    { sizes: '512x512', purpose: 'any' },
    { sizes: '512x512', purpose: 'maskable' },
  ];
  const appleHref = (await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')) ?? 'missing apple-touch-icon';
  const icons = [
    ...required.map(({ sizes, purpose }) => {
      const icon = manifest.icons.find((candidate) => candidate.sizes === sizes && (candidate.purpose ?? 'any').split(' ').includes(purpose));
      expect(icon, `a ${sizes} "${purpose}" icon in the manifest`).toBeDefined();
      return { src: icon?.src ?? 'missing', sizes };
    }),
    { src: appleHref, sizes: '180x180' },
  ];
  for (const { src, sizes } of icons) {
    const response = await page.request.get(src);
    expect(response.status(), src).toBe(200);
    expect(response.headers()['content-type'], src).toMatch(/^image\/png/);
    const { width, height, format } = await sharp(await response.body()).metadata();
    expect(`${format} ${width}x${height}`, src).toBe(`png ${sizes}`);
  }

  // The service worker: active after the first load, controlling the page on the next.
  const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  expect(scriptURL).toMatch(/\/sw\.js$/);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);

  // A signed-in visit: the dashboard's calls and photos go through the page, none into a cache.
  const member = await createMember(
    { name: 'Ines', age: 31, gender: 'female', seeks: 'male', ages: [58, 59], city: 'Boise, ID' },
    '#5b8def',
    PASSWORD,
  );
  await signIn(page, member);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const cached = await cachedUrls(page);
  expect(cached.some((url) => /\/index\.html/.test(url)), 'the app shell is precached').toBe(true);
  expect(cached.filter((url) => /\/(api|socket\.io)\//.test(new URL(url).pathname))).toEqual([]);

  // The network cut: the app opens from the worker, says it is offline, and keeps the member
  // signed in (the session check got no answer; it was not refused).
  await page.context().setOffline(true);
  const offline = await page.goto('/discover');
  expect(offline?.fromServiceWorker(), 'the page came from the service worker').toBe(true);
  await expect(offlineBanner(page)).toBeVisible();
  await expect(offlineBanner(page)).toContainText("Messages you write will be sent when you're back online.");
  const banner = await offlineBanner(page).boundingBox();
  expect(banner && banner.y >= 0 && banner.y + banner.height <= PHONE.height, 'the banner is on screen').toBe(true);
  const unavailable = page.getByRole('heading', { name: "We couldn't load your profile" });
  await expect(unavailable).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toHaveCount(0);
  expect(await page.evaluate(() => Object.keys(localStorage))).toContain('auth_token');

  // Back online: the banner goes, and Try Again opens Discover with the same session.
  await page.context().setOffline(false);
  await expect(offlineBanner(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(unavailable).toHaveCount(0);
  await expect(page).toHaveURL(/\/discover$/);
});

import { expect, test, type Page } from '@playwright/test';
import { seriousA11yViolations } from './support/axe';
import { createUser, DEMO_ADMIN, signIn } from './support/users';

/**
 * The web app on a real phone (issue 20) and on a desktop: installable (manifest, icons, offline page), a title and
 * a focused heading per page, skip links, and no page wider than the screen for someone with a long e-mail address.
 */
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

/** A 40-character address: `${tag}-<8 hex>@example.test` is tag + 22 characters. */
const LONG_TAG = 'phone-long-address';

const PUBLIC_ROUTES = [
  ['/', 'Public safety alerts · Beacon'],
  ['/login', 'Sign In · Beacon'],
  ['/signup', 'Sign Up · Beacon'],
  ['/forgot-password', 'Forgot Password · Beacon'],
  ['/faq', 'FAQ · Beacon'],
  ['/premium', 'Premium · Beacon'],
  ['/map', 'Safety Map · Beacon'],
  ['/terms', 'Terms of Service · Beacon'],
  ['/privacy', 'Privacy Policy · Beacon'],
  ['/contact', 'Contact Support · Beacon'],
] as const;

const USER_ROUTES = [
  ['/dashboard', 'Dashboard · Beacon'],
  ['/dashboard/alerts', 'Alert Management · Beacon'],
  ['/dashboard/maps', 'Maps · Beacon'],
  ['/dashboard/cameras', 'Cameras · Beacon'],
  ['/dashboard/report-incident', 'Report Incident · Beacon'],
  ['/dashboard/community', 'Community · Beacon'],
  ['/dashboard/store', 'Store · Beacon'],
  ['/dashboard/activity', 'Activity · Beacon'],
  ['/dashboard/settings', 'Settings · Beacon'],
  ['/alerts', 'Alerts · Beacon'],
  ['/profile', 'Profile · Beacon'],
  ['/faq', 'FAQ · Beacon'],
  ['/premium', 'Premium · Beacon'],
  ['/map', 'Safety Map · Beacon'],
] as const;

const ADMIN_ROUTES = [
  ['/admin', 'Admin Dashboard · Beacon'],
  ['/admin/create-alert', 'Create Alert · Beacon'],
  ['/admin/alerts', 'Sent Alerts · Beacon'],
  ['/admin/history', 'Alert History · Beacon'],
  ['/admin/help-requests', 'Help Requests · Beacon'],
  ['/admin/moderation', 'Moderation · Beacon'],
  ['/admin/products', 'Products · Beacon'],
  ['/admin/settings', 'Admin Settings · Beacon'],
] as const;

/** How much wider than the window the page is (0: no sideways scrolling). */
async function overflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Opens each route as a visitor would, waits for its page and its title, and lists what is wrong with it: a page
 * wider than the window, serious or critical axe findings. One list for all routes, so one run shows every defect.
 */
async function sweep(page: Page, routes: readonly (readonly [string, string])[]) {
  const problems: string[] = [];
  for (const [path, title] of routes) {
    await open(page, path, title);
    const wider = await overflow(page);
    if (wider > 0) problems.push(`${path}: ${wider} px wider than the screen`);
    for (const v of await seriousA11yViolations(page)) problems.push(`${path}: ${v}`);
  }
  return problems;
}

/** Opens a route as a visitor would and waits for its page (its main heading) to show. */
async function open(page: Page, path: string, title: string) {
  await page.goto(path);
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page).toHaveTitle(title);
  // the page's data arrives after the heading: measure once nothing is loading any more
  await expect(page.locator('.spinner')).toHaveCount(0);
}

for (const viewport of VIEWPORTS) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    // axe-core is injected as a script, which the app's own Content-Security-Policy would (rightly) block
    test.use({ viewport: { width: viewport.width, height: viewport.height }, bypassCSP: true });
    // each sweep opens and checks a dozen pages in turn
    test.describe.configure({ timeout: 240_000 });

    test('signed out: every public page has its title, fits the screen and passes axe', async ({ page }) => {
      expect(await sweep(page, PUBLIC_ROUTES)).toEqual([]);
    });

    test('a user with a 40-character e-mail address: every page fits the screen, has its title and passes axe', async ({ page, request }) => {
      const user = await createUser(request, LONG_TAG);
      expect(user.email).toHaveLength(40);
      await signIn(page, user);
      expect(await sweep(page, USER_ROUTES)).toEqual([]);
      // the address itself is shown whole, not cut off
      await page.goto('/profile');
      await expect(page.getByText(user.email).first()).toBeVisible();
    });

    test('an administrator: every console page has its title, fits the screen and passes axe', async ({ page }) => {
      await signIn(page, DEMO_ADMIN, /\/(dashboard|admin)$/);
      expect(await sweep(page, ADMIN_ROUTES)).toEqual([]);
    });

    test('navigation moves focus to the new page heading, and the skip link jumps to the content', async ({ page, request }) => {
      const user = await createUser(request, `focus-${viewport.name}`);
      await signIn(page, user);
      await page.goto('/dashboard');
      await expect(page.locator('h1').first()).toBeVisible();
      // the first Tab reaches the skip link, which moves on to the page's content
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/#main$/);

      await page.goto('/faq');
      await expect(page.locator('h1').first()).toBeVisible();
      // the header's Alerts link on a desktop, the bottom bar's on a phone (named with the unread count when there is one)
      await page
        .getByRole('link', { name: /^Alerts( \(\d+ unread\))?$/ })
        .filter({ visible: true })
        .first()
        .click();
      await expect(page).toHaveTitle('Alerts · Beacon');
      await expect(page.locator('h1').first()).toBeFocused();
    });
  });
}

test.describe('installable', () => {
  test('index.html links a manifest with name, start_url, display, theme colour and real 192/512 px and maskable PNG icons', async ({ page, request }) => {
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/manifest+json');
    const manifest = await res.json();
    expect(manifest).toMatchObject({
      name: expect.stringContaining('Beacon'),
      short_name: 'Beacon',
      start_url: '/dashboard',
      display: 'standalone',
      theme_color: '#b91c1c',
    });
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    const wanted = [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['192x192', 'maskable'],
      ['512x512', 'maskable'],
    ];
    for (const [sizes, purpose] of wanted) {
      const icon = icons.find((i) => i.sizes === sizes && i.purpose === purpose && i.type === 'image/png');
      expect(icon, `${sizes} ${purpose}`).toBeDefined();
      const png = await request.get(icon!.src);
      expect(png.status()).toBe(200);
      const bytes = await png.body();
      // a real PNG of the size the manifest says: signature, then the IHDR width and height
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      const [w, h] = sizes.split('x').map(Number);
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([w, h]);
    }
  });

  test('a navigation without a network shows the offline page from the service worker', async ({ page, context }) => {
    await page.goto('/');
    await expect(page.locator('h1').first()).toBeVisible();
    // the worker is registered for every visitor, and takes control of the page once it is active
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    try {
      await page.goto('/dashboard/alerts');
      await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
      await expect(page).toHaveTitle('Offline · Beacon');
      await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/');
    } finally {
      await context.setOffline(false);
    }
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page).toHaveTitle('Public safety alerts · Beacon');
  });
});

for (const viewport of VIEWPORTS) {
  test.describe(`no dead ends, no lost edits (${viewport.name}, ${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // journeys of a dozen steps each
    test.describe.configure({ timeout: 120_000 });
    const phone = viewport.width < 768;

    test('location onboarding: asked once, a banner saying why until a home is set, then the feed for that place', async ({ page, request, context }) => {
      const user = await createUser(request, `where-${viewport.name}`);
      await signIn(page, user);
      const ask = page.getByRole('region', { name: 'Where should Beacon watch for you?' });
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: 'Not now' }).click();
      await expect(ask).toBeHidden();
      const banner = page.getByRole('region', { name: 'Set your home location' });
      await expect(banner).toBeVisible();
      await expect(banner).toContainText('only alerts for everyone: critical alerts and alerts without an area');

      // asked once: not again on the next visit, while the banner stays
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(banner).toBeVisible();
      await expect(ask).toHaveCount(0);
      await page.goto('/alerts');
      await expect(banner).toBeVisible();

      // the map way leads to the Home Location card
      await banner.getByRole('link', { name: 'Choose on the map' }).click();
      await expect(page).toHaveURL(/\/dashboard\/alerts#home-location$/);
      await expect(page.getByRole('heading', { name: 'Home Location' })).toBeInViewport();

      // the GPS way sets it, and the banner goes
      await context.grantPermissions(['geolocation']);
      await context.setGeolocation({ latitude: 33.4484, longitude: -112.074 });
      await page.goto('/alerts');
      await banner.getByRole('button', { name: 'Use my location' }).click();
      await expect(page.getByText('Home location saved. You now see the alerts for your area.')).toBeVisible();
      await expect(banner).toHaveCount(0);
    });

    test('alert preferences: leaving with unsaved changes asks first; Save is on screen; Quick Setup asks before overwriting', async ({ page, request }) => {
      const user = await createUser(request, `prefs-${viewport.name}`);
      await signIn(page, user);
      await page.goto('/dashboard/alerts');
      const crime = page.getByRole('switch', { name: 'Crime alerts' });
      await expect(crime).toBeVisible();
      const wasOn = await crime.isChecked();
      await crime.setChecked(!wasOn);

      // a Save within reach wherever the user is on the long form
      const save = page.getByRole('button', { name: 'Save changes' });
      for (const where of ['the middle', 'the very end']) {
        await page.evaluate((end) => window.scrollTo(0, end ? document.body.scrollHeight : document.body.scrollHeight / 2), where === 'the very end');
        await expect(save, `Save on screen at ${where} of the page`).toBeInViewport({ ratio: 1 });
      }

      // leaving through the app's navigation asks; staying keeps the edit
      const leaveTo = phone
        ? page.getByRole('navigation', { name: 'Sections', exact: true }).getByRole('link', { name: 'Maps' })
        : page.getByRole('link', { name: 'Community' });
      await leaveTo.click();
      const dialog = page.getByRole('alertdialog', { name: 'Leave without saving?' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Stay on this page' }).click();
      await expect(page).toHaveURL(/\/dashboard\/alerts$/);
      await expect(crime).toBeChecked({ checked: !wasOn });

      await save.click();
      await expect(page.getByText('Preferences saved')).toBeVisible();
      await expect(save).toBeHidden();
      // saved: leaving no longer asks
      await leaveTo.click();
      await expect(page).not.toHaveURL(/\/dashboard\/alerts$/);
      await expect(dialog).toBeHidden();

      // Quick Setup over the user's own settings asks, and Keep my settings keeps them
      await page.goto('/dashboard/alerts');
      await expect(crime).toBeChecked({ checked: !wasOn });
      await page.getByRole('button', { name: 'Quick Setup' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Replace your settings with Quick Setup?' });
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: 'Keep my settings' }).click();
      await expect(ask).toBeHidden();
      await expect(crime).toBeChecked({ checked: !wasOn });
      await page.getByRole('button', { name: 'Quick Setup' }).click();
      await ask.getByRole('button', { name: 'Replace my settings' }).click();
      await expect(page.getByText('Quick Setup applied')).toBeVisible();
      await expect(crime).toBeChecked();
    });

    test('every former dead end leads somewhere', async ({ page, request, context }) => {
      // sign-up's Terms and Privacy open in a new tab: the form keeps what was typed
      await page.goto('/signup');
      await page.getByLabel('Email').fill('keep-me@example.test');
      for (const [name, heading] of [
        ['Terms of Service', 'Terms of Service'],
        ['Privacy Policy', 'Privacy Policy'],
      ]) {
        const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name }).click()]);
        await expect(tab.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await tab.close();
      }
      await expect(page.getByLabel('Email')).toHaveValue('keep-me@example.test');

      // FAQ's Contact Support
      await page.goto('/faq');
      await page.getByRole('link', { name: 'Contact Support' }).click();
      await expect(page).toHaveURL(/\/contact$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Contact Support' })).toBeVisible();

      // the public map is linked for visitors
      await page.goto('/');
      if (phone) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('link', { name: 'Safety Map' }).filter({ visible: true }).first().click();
      await expect(page).toHaveURL(/\/map$/);

      const user = await createUser(request, `ends-${viewport.name}`);
      await signIn(page, user);
      if (phone) {
        // every section of the bottom bar is on screen, the rest one press away under More
        const bar = page.getByRole('navigation', { name: 'Sections', exact: true });
        for (const name of ['Dashboard', 'Maps', 'Alerts', 'Report']) await expect(bar.getByRole('link', { name })).toBeInViewport({ ratio: 1 });
        const more = bar.getByRole('button', { name: 'More' });
        await expect(more).toBeInViewport({ ratio: 1 });
        for (const [name, path] of [
          ['Store', '/dashboard/store'],
          ['Profile', '/profile'],
          ['Settings', '/dashboard/settings'],
          ['Cameras', '/dashboard/cameras'],
          ['Community', '/dashboard/community'],
        ]) {
          await more.click();
          await expect(more).toHaveAttribute('aria-expanded', 'true');
          const link = bar.getByRole('link', { name });
          await expect(link).toBeInViewport({ ratio: 1 });
          await link.click();
          await expect(page).toHaveURL(new RegExp(`${path}$`));
          // where the user is stays visible: More is highlighted for a section behind it
          if (path.startsWith('/dashboard')) await expect(more).toHaveClass(/active/);
        }
      } else {
        // the desktop dashboard links to Profile, Alerts and Premium
        const sidebar = page.getByRole('navigation', { name: 'Dashboard sections' });
        for (const [name, path] of [
          ['My Alerts', '/alerts'],
          ['Profile', '/profile'],
          ['Premium', '/premium'],
        ]) {
          await page.goto('/dashboard');
          await sidebar.getByRole('link', { name }).click();
          await expect(page).toHaveURL(new RegExp(`${path}$`));
        }
      }
    });

    test('the map legend collapses a group, and a store search with no match shows only its answer', async ({ page, request }) => {
      const user = await createUser(request, `map-${viewport.name}`);
      await signIn(page, user);
      await page.goto('/dashboard/maps');
      const group = page.getByRole('button', { name: 'Weather' });
      const layer = page.getByRole('checkbox', { name: /Weather Hazards/ });
      await expect(layer).toBeVisible();
      await group.click();
      await expect(group).toHaveAttribute('aria-expanded', 'false');
      await expect(layer).toBeHidden();
      await group.click();
      await expect(layer).toBeVisible();
      if (phone) {
        // the stats box no longer covers the zoom buttons
        const zoomIn = page.getByRole('button', { name: 'Zoom in' });
        await expect(zoomIn).toBeVisible();
        await zoomIn.click({ trial: true });
      }

      await page.goto('/dashboard/store');
      await expect(page.getByRole('region', { name: /Featured Products/ })).toBeVisible();
      await page.getByLabel('Search products').fill('zzz-no-such-product');
      await expect(page.getByText('No products found')).toBeVisible();
      await expect(page.getByText('Try adjusting your search or filters')).toBeVisible();
      await expect(page.getByRole('region', { name: /Featured Products/ })).toHaveCount(0);
    });
  });
}

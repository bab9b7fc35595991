import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * Offline that keeps what it knew, and the first run (issue #40), in a real Chromium with the service worker: the
 * person's alerts stay on screen offline with the shell's indicator, through the Refresh button and a reload; a section
 * never opened shows the offline page, not the error screen; an alert sent while offline appears once back online.
 * And the first run asks for notifications after the location step, and remembers the answer.
 */

// journeys of a dozen steps, each waiting on the network coming and going
test.describe.configure({ timeout: 120_000 });

let adminToken: string;

test.beforeAll(async ({ request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
});

/** An alert for everyone, as an administrator sends it (through the API: the console has its own journeys). */
async function sendAlert(request: APIRequestContext, title: string) {
  const res = await request.post('/api/alerts', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { title, message: 'Use another route until further notice.', category: 'traffic', severity: 'high', channels: ['push'], everyone: true },
  });
  expect(res.status(), await res.text()).toBe(201);
}

const alertHeading = (page: Page, title: string) => page.getByRole('heading', { name: title });

/** The warning banners of alerts sent by other journeys (every new person hears of the alerts for everyone) put away. */
async function dismissWarnings(page: Page) {
  const dismiss = page.getByRole('region', { name: 'Warnings' }).getByRole('button', { name: /^Dismiss: / });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

test('the first run asks for notifications after the location step, and remembers the answer', async ({ page, request }) => {
  const user = await createUser(request, 'first-run');
  await signIn(page, user);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Welcome, /);
  await expect(page.getByRole('link', { name: 'Set your home' })).toBeVisible();
  await expect(page.getByText('Phoenix, AZ')).toHaveCount(0);

  const where = page.getByRole('region', { name: 'Where should Beacon watch for you?' });
  await expect(where).toBeVisible();
  await page.waitForLoadState('networkidle');
  await dismissWarnings(page);
  await where.getByRole('button', { name: 'Not now' }).click();
  const notify = page.getByRole('region', { name: 'Get warnings even when Beacon is closed' });
  await expect(notify).toBeVisible();
  await expect(notify).toContainText('even when this page is closed');

  // the browser's own question: headless Chromium refuses it; the refusal is said, and the step is answered
  await notify.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(page.getByText(/Notifications are blocked|Could not turn on push notifications/)).toBeVisible();
  await expect(notify).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Set your home location' })).toBeVisible();

  // asked once: not on the next visit, which welcomes the person back
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Welcome back, /);
  await expect(page.getByRole('region', { name: 'Set your home location' })).toBeVisible();
  await expect(where).toHaveCount(0);
  await expect(notify).toHaveCount(0);
});

test('offline, the alerts stay with the indicator, through Refresh and a reload; an unopened section shows the offline page; the missed alert comes after', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const user = await createUser(request, 'offline');
    const stamp = Date.now() % 100000;
    const known = `Bridge closed on Mill Ave ${stamp}`;
    const missed = `Wrong-way driver on Loop 101 ${stamp}`;
    await sendAlert(request, known);
    await signIn(page, user);

    // the service worker keeps the app for a signed-in person; this page's own code is kept once it is loaded through it
    await page.goto('/alerts');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect.poll(() => page.evaluate(() => caches.has('beacon-shell-v1'))).toBe(true);
    await page.reload();
    await expect(alertHeading(page, known)).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    const indicator = page.getByRole('status').filter({ hasText: 'You are offline.' });
    await expect(indicator).toHaveCount(0);
    await context.setOffline(true);
    await expect(indicator).toBeVisible();
    await expect(indicator).toContainText(/Offline since \d{1,2}:\d{2} [AP]M, last updated \d{1,2}:\d{2} [AP]M\./);
    await expect(alertHeading(page, known)).toBeVisible();

    // Refresh offline keeps the list
    const refresh = page.getByRole('button', { name: 'Refresh', exact: true });
    await refresh.click();
    await expect(refresh).toBeEnabled();
    await expect(alertHeading(page, known)).toBeVisible();
    await expect(page.getByText('Failed to load alerts')).toHaveCount(0);

    // so does a reload: the kept app opens with the kept alerts, not the offline page
    await page.reload();
    await expect(alertHeading(page, known)).toBeVisible();
    await expect(indicator).toBeVisible();
    await expect(page.getByRole('heading', { name: 'You are offline' })).toHaveCount(0);

    // sent while this browser cannot hear it
    await sendAlert(request, missed);

    // a section never opened on this device: the offline page inside the app, never "Something went wrong"
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'FAQ', exact: true }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
    await expect(page.getByText('Something went wrong.')).toHaveCount(0);
    await expect(indicator).toBeVisible();
    await expect(alertHeading(page, missed)).toHaveCount(0);

    // back online: the section loads by itself, and the alerts catch up
    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeVisible();
    await expect(indicator).toHaveCount(0);
    // the missed alert is announced as it comes; put away, its banner uncovers the header's links
    const announced = page.getByRole('alert').filter({ hasText: missed });
    await announced.getByRole('button', { name: /^Dismiss/ }).click();
    await menu.getByRole('link', { name: /^Alerts/ }).click();
    await expect(alertHeading(page, missed)).toBeVisible();
    await expect(alertHeading(page, known)).toBeVisible();
  } finally {
    await context.setOffline(false);
    await context.close();
  }
});

test('an alert sent while the open alerts page is offline appears when the connection comes back', async ({ browser, request }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const user = await createUser(request, 'catch-up');
    const stamp = Date.now() % 100000;
    const known = `Dust storm on I-10 ${stamp}`;
    const missed = `Flooded underpass on 7th St ${stamp}`;
    await sendAlert(request, known);
    await signIn(page, user);
    await page.goto('/alerts');
    await expect(alertHeading(page, known)).toBeVisible();

    await context.setOffline(true);
    await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible();
    await sendAlert(request, missed);
    // the list as it was: offline, the socket is closed and nothing reaches this page
    await expect(alertHeading(page, known)).toBeVisible();
    await expect(alertHeading(page, missed)).toHaveCount(0);

    await context.setOffline(false);
    await expect(alertHeading(page, missed)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toHaveCount(0);
  } finally {
    await context.setOffline(false);
    await context.close();
  }
});

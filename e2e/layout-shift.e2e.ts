import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { describeShifts, layoutShiftOf } from './support/layout-shift';
import { createUser, signIn, tokenFor } from './support/users';

/**
 * Layout shift (issue #35): no page moves under the reader once it has drawn. At phone and desktop size, the landing
 * page signed out, and the dashboard, the alerts feed and the safety map for a user with a home location and for one
 * without (whose dashboard asks for one and whose feed says why it is short: cards that come after the first paint),
 * each loaded afresh and left to settle, shift by at most 0.1 in all (the "good" Core Web Vitals threshold).
 */
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

const MAX_CLS = 0.1;
const SIGNED_IN_PAGES = ['/dashboard', '/alerts', '/map'] as const;
// Far from the seeded people and every other journey's homes (Flagstaff, AZ).
const HOME = { lat: 35.1983, lng: -111.6513 };

/** Soft: a test measures each of its pages even when one shifts too much, and names every one that does. */
async function expectSteady(page: Page, path: string) {
  const report = await layoutShiftOf(page, path);
  console.log(`${path}: CLS ${report.cls.toFixed(4)}${report.shifts.length ? `\n${describeShifts(report)}` : ''}`);
  expect.soft(report.cls, `${path} shifted by ${report.cls.toFixed(4)}:\n${describeShifts(report)}`).toBeLessThanOrEqual(MAX_CLS);
}

async function withHome(request: APIRequestContext, user: { email: string; password: string }) {
  const res = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${await tokenFor(request, user)}` },
    data: { home: HOME, radiusMiles: 10 },
  });
  expect(res.status(), await res.text()).toBe(200);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} size (${viewport.width}x${viewport.height})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('signed out: the landing page and the map', async ({ page }) => {
      await expectSteady(page, '/');
      await expectSteady(page, '/map');
    });

    test('a user without a home location: dashboard, alerts and map', async ({ page, request }) => {
      const user = await createUser(request, `cls-nohome-${viewport.name}`);
      await signIn(page, user);
      for (const path of SIGNED_IN_PAGES) await expectSteady(page, path);
      // once they have answered the dashboard's question, it shows the shorter banner in its place
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Not now' }).click();
      await expect(page.getByRole('heading', { name: 'Set your home location' })).toBeVisible();
      await expectSteady(page, '/dashboard');
    });

    test('a user with a home location: dashboard, alerts and map', async ({ page, request }) => {
      const user = await createUser(request, `cls-home-${viewport.name}`);
      await withHome(request, user);
      await signIn(page, user);
      for (const path of SIGNED_IN_PAGES) await expectSteady(page, path);
    });
  });
}

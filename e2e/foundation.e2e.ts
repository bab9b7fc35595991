import { expect, test } from '@playwright/test';

test('the landing page renders at /', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Beacon/);
  await expect(page.getByRole('link', { name: 'Beacon' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('an unknown path lands on /', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
});

test('an unknown path under /admin lands on / too (only /dashboard keeps its own)', async ({ page }) => {
  await page.goto('/admin/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('a protected route sends a signed-out visitor to /login', async ({ page }) => {
  await page.goto('/dashboard/community');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Beacon' })).toBeVisible();
});

test('every service answers /ready through the edge', async ({ request }) => {
  for (const name of ['identity', 'incidents', 'store', 'alerts', 'traffic', 'dispatcher', 'gateway']) {
    const res = await request.get(`/api/${name}/ready`);
    expect(res.status(), name).toBe(200);
  }
});

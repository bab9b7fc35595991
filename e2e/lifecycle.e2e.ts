import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * An alert's life, watched by the person it concerns (issue 19): an admin sends it, updates it (the user's open
 * /alerts shows the new version without a reload), then gives the all-clear (the alert ends there, live, with the
 * admin's words).
 */
test.describe.configure({ mode: 'serial' });

let admin: { context: BrowserContext; page: Page };
let person: { context: BrowserContext; page: Page };
let adminToken: string;
const HOME = { lat: 35.0844, lng: -106.6504 };

test.beforeAll(async ({ browser, request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
  const user = await createUser(request, 'lifecycle');
  const userToken = await tokenFor(request, user);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${userToken}` },
    data: { alertTypes: ['traffic'], home: HOME, radiusMiles: 10, methods: { push: false, sms: false, email: false } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  for (const [who, creds, path] of [
    ['admin', DEMO_ADMIN, /\/dashboard$/],
    ['person', user, /\/dashboard$/],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, creds, path);
    if (who === 'admin') admin = { context, page };
    else person = { context, page };
  }
});

test.afterAll(async () => {
  await admin?.context.close();
  await person?.context.close();
});

test('update and all-clear reach the open /alerts of the person concerned, live', async ({ request }) => {
  const title = `Wrong-way driver on I-25 ${Date.now() % 100000}`;
  await person.page.goto('/alerts');
  const created = await request.post('/api/alerts', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: {
      title,
      message: 'Northbound in the southbound lanes near Gibson.',
      category: 'traffic',
      severity: 'high',
      lat: HOME.lat,
      lng: HOME.lng,
      radiusKm: 8,
      channels: ['push'],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const alert = await created.json();
  await expect(person.page.getByRole('heading', { name: title })).toBeVisible({ timeout: 15_000 });

  // The admin updates it from its page.
  await admin.page.goto(`/admin/alerts/${alert.id}`);
  await admin.page.getByRole('button', { name: 'Update alert' }).click({ timeout: 15_000 });
  const newTitle = `${title} now at Cesar Chavez`;
  await admin.page.getByLabel('Title').fill(newTitle);
  await admin.page.getByRole('button', { name: 'Send update' }).click();
  await expect(admin.page.getByText('Version 2 is going out to the people this alert concerns.')).toBeVisible();
  await expect(admin.page.getByRole('list', { name: 'Versions' })).toContainText('Version 2 · Updated (title)');

  // The person's screen shows the new version, without a reload.
  const card = person.page.locator(`[data-alert-id="${alert.id}"]`);
  await expect(card.getByRole('heading', { name: newTitle })).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText('Updated', { exact: true })).toBeVisible();

  // The all-clear ends it there too, with the admin's words.
  await admin.page.getByRole('button', { name: 'Give the all-clear' }).click();
  await admin.page.getByLabel('All-clear message (optional)').fill('The driver was stopped. All lanes are open.');
  await admin.page.getByRole('button', { name: 'Send all-clear' }).click();
  await expect(admin.page.getByText('All clear given: everyone this alert reached is being told.')).toBeVisible();
  await expect(card.getByText('All Clear', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText('The driver was stopped. All lanes are open.')).toBeVisible();
  await expect(card.getByRole('button', { name: /I'm Safe/ })).toHaveCount(0);

  // The public CAP message is now the all-clear.
  const cap = await request.get(`/api/alerts/cap/alerts/${alert.id}.xml`);
  const xml = await cap.text();
  expect(xml).toContain('<msgType>Update</msgType>');
  expect(xml).toContain('<responseType>AllClear</responseType>');
});

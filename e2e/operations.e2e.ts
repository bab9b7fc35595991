import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startSmsWebhook } from './support/providers';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * The operations console tells the truth and lets the operator act on it: an alert sent into a dead SMS provider
 * reads Failed in two admin windows; the provider is fixed; Retry failed in one window, and both watch the deliveries
 * arrive live, without a reload.
 */
let sms: Awaited<ReturnType<typeof startSmsWebhook>>;
const windows: { context: BrowserContext; page: Page }[] = [];
let adminToken: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, request }) => {
  sms = await startSmsWebhook();
  adminToken = await tokenFor(request, DEMO_ADMIN);
  for (let i = 0; i < 2; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, DEMO_ADMIN, /\/dashboard$/);
    windows.push({ context, page });
  }
});

test.afterAll(async () => {
  for (const w of windows) await w.context.close();
  await sms?.close();
});

test('an alert into a dead SMS provider reads Failed; Retry failed after the fix, watched live in two admin windows', async ({ request }) => {
  const auth = { Authorization: `Bearer ${adminToken}` };
  sms.state.refusing = true;
  expect((await request.put('/api/alerts/admin/settings', { headers: auth, data: { webhook: { enabled: true, url: sms.url } } })).status()).toBe(200);

  // Someone in the plains who wants SMS for emergencies.
  const home = { lat: 41.1, lng: -100.8 };
  const person = await createUser(request, 'ops');
  const personToken = await tokenFor(request, person);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${personToken}` },
    data: { alertTypes: ['emergency'], home, radiusMiles: 5, methods: { push: false, sms: true, email: false }, phoneNumber: '+13085550199' },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const title = `Grass fire near North Platte ${Date.now()}`;
  const created = await request.post('/api/alerts', {
    headers: auth,
    data: { title, message: 'Leave by the west roads.', category: 'health', severity: 'high', lat: home.lat, lng: home.lng, radiusKm: 5, channels: ['sms'] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const alert = await created.json();
  const mine = () => sms.calls.filter((c) => c.title === title && c.recipients.includes('+13085550199'));

  // Both windows see the truth.
  for (const { page } of windows) {
    await page.goto(`/admin/alerts/${alert.id}`);
    await expect(page.getByRole('heading', { name: 'Alert Details' })).toBeVisible();
    await expect(page.locator('.delivery-icon.delivery-failed').first()).toBeVisible({ timeout: 15_000 });
  }
  expect(mine()).toHaveLength(1); // the one refused call
  // And why: the live operations view groups the failure under the provider's answer.
  for (const { page } of windows)
    await expect(page.getByRole('list', { name: 'Failures by reason' }).getByRole('listitem').first()).toContainText(/SMS\s*\d+ failed.*400/);

  // The provider works again; one operator retries, the other just watches.
  sms.state.refusing = false;
  const [operator, watcher] = windows.map((w) => w.page);
  const retry = operator.getByRole('button', { name: /^Retry failed \(\d+\)$/ });
  const failed = Number(/\((\d+)\)/.exec(await retry.innerText())![1]);
  await retry.click();
  // The retry asks first (issue #38), naming the people its failed deliveries are for; only that sends.
  const who = `${failed} ${failed === 1 ? 'person' : 'people'}`;
  const confirmation = operator.getByRole('dialog', { name: 'Retry the failed SMS deliveries?' });
  await expect(confirmation).toContainText(`Retrying reaches ${who}.`);
  await confirmation.getByRole('button', { name: `Retry for ${who}`, exact: true }).click();
  await expect(confirmation).toHaveCount(0);
  await expect(operator.getByText(`Sending ${failed} again by SMS.`, { exact: true })).toBeVisible();

  for (const page of [operator, watcher]) await expect(page.locator('.delivery-icon.delivery-sent-to-provider').first()).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => mine().length).toBe(2);
  await expect(operator.getByText(/Retried SMS for \d+ (person|people) by admin@beacon\.local/)).toBeVisible({ timeout: 15_000 });
  // The watcher never reloaded: what it shows came live, the failure gone from its operations view too.
  await expect(watcher.getByRole('region', { name: 'Live operations' }).getByText('No failures so far.')).toBeVisible({ timeout: 15_000 });
});

test('a provider down for now: both windows see the delivery waiting for its retry, why and when, then go out', async ({ request }) => {
  const auth = { Authorization: `Bearer ${adminToken}` };
  sms.state.downForSeconds = 6;
  const home = { lat: 41.2, lng: -100.9 };
  const person = await createUser(request, 'ops-retry');
  const personToken = await tokenFor(request, person);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${personToken}` },
    data: { alertTypes: ['emergency'], home, radiusMiles: 5, methods: { push: false, sms: true, email: false }, phoneNumber: '+13085550177' },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const title = `Power line down near Hershey ${Date.now()}`;
  const created = await request.post('/api/alerts', {
    headers: auth,
    data: {
      title,
      message: 'Keep away from Hwy 30 west of town.',
      category: 'health',
      severity: 'high',
      lat: home.lat,
      lng: home.lng,
      radiusKm: 5,
      channels: ['sms'],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const alert = await created.json();

  for (const { page } of windows) {
    await page.goto(`/admin/alerts/${alert.id}`);
    const smsRow = page.getByRole('table', { name: 'Pace, retries and holds by channel' }).getByRole('row', { name: /SMS/ });
    await expect(smsRow).toContainText(/\d+ · (next attempt in \d+ s|trying again now)/, { timeout: 15_000 });
    await expect(page.getByRole('list', { name: 'Failures by reason' }).getByRole('listitem').first()).toContainText(/SMS\s*\d+ to be retried.*503/);
    await expect(page.getByText(/\d+ waiting for a retry/)).toBeVisible();
  }
  sms.state.downForSeconds = null;
  for (const { page } of windows) {
    await expect(page.locator('.delivery-icon.delivery-sent-to-provider').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('region', { name: 'Live operations' }).getByText('No failures so far.')).toBeVisible();
  }
});

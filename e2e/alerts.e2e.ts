import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startSmsWebhook } from './support/providers';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

// One admin and one user for the whole file: signing in is rate-limited per account, as it should be.
let sms: Awaited<ReturnType<typeof startSmsWebhook>>;
let admin: BrowserContext;
let adminPage: Page;
let adminToken: string;
let user: { email: string; password: string };
let userContext: BrowserContext;
let userPage: Page;

async function contextSignedIn(browser: Browser, who: { email: string; password: string }, landing: RegExp) {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signIn(page, who, landing);
  return { context, page };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, request }) => {
  sms = await startSmsWebhook();
  ({ context: admin, page: adminPage } = await contextSignedIn(browser, DEMO_ADMIN, /\/dashboard$/));
  adminToken = await tokenFor(request, DEMO_ADMIN);
  user = await createUser(request, 'alerts');
  ({ context: userContext, page: userPage } = await contextSignedIn(browser, user, /\/dashboard$/));
});

test.afterAll(async () => {
  await admin?.close();
  await userContext?.close();
  await sms?.close();
});

async function apiAlert(page: Page, body: Record<string, unknown>) {
  // An alert with no area goes to everyone only when that is chosen (issue #38).
  const data = body.area || body.lat !== undefined || body.draft ? body : { ...body, everyone: true };
  const res = await page.request.post('/api/alerts', { data, headers: { Authorization: `Bearer ${adminToken}` } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

test('admin settings are saved on the server and survive a reload', async () => {
  await adminPage.goto('/admin/settings');
  await adminPage.getByLabel('Username').fill('beacon-ops');
  await adminPage.getByLabel('API Key', { exact: true }).fill('sk-test-abcd1234');
  await adminPage.getByLabel('Webhook URL').fill(sms.url);
  await adminPage.getByRole('button', { name: 'Save Settings' }).click();
  await expect(adminPage.getByText('Settings saved')).toBeVisible();

  await adminPage.reload();
  await expect(adminPage.getByLabel('Username')).toHaveValue('beacon-ops');
  await expect(adminPage.getByLabel('Webhook URL')).toHaveValue(sms.url);
  await expect(adminPage.getByLabel('API Key', { exact: true })).toHaveValue('');
  await expect(adminPage.getByLabel('masked key')).toContainText('1234');
  // the secret never comes back in clear
  const settings = await adminPage.request.get('/api/alerts/admin/settings', { headers: { Authorization: `Bearer ${adminToken}` } });
  expect(await settings.text()).not.toContain('sk-test-abcd1234');

  await adminPage.getByRole('button', { name: 'Test Webhook' }).click();
  await expect(adminPage.getByText('n8n webhook connection successful!')).toBeVisible();
});

test("a user's saved preferences decide whether the next alert reaches them", async () => {
  await userPage.goto('/dashboard/alerts');
  await expect(userPage.getByRole('heading', { name: 'Alert Management' })).toBeVisible();
  await userPage.getByLabel('SMS', { exact: true }).check();
  await userPage.getByLabel('Phone number').fill('+16025550147');
  await userPage.getByLabel('Weather alerts').uncheck();
  await userPage.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(userPage.getByText('Preferences saved')).toBeVisible();
  await userPage.reload();
  await expect(userPage.getByLabel('Weather alerts')).not.toBeChecked();
  await expect(userPage.getByLabel('Phone number')).toHaveValue('+16025550147');

  const weather = await apiAlert(userPage, {
    title: `Dust storm ${Date.now()}`,
    message: 'A dust storm is crossing the valley now.',
    category: 'weather',
    severity: 'high',
    channels: ['sms'],
  });
  const safety = await apiAlert(userPage, {
    title: `Water main ${Date.now()}`,
    message: 'A water main break closed the road downtown.',
    category: 'public_safety',
    severity: 'high',
    channels: ['sms'],
  });
  const sentTo = (title: string) => sms.calls.filter((c) => c.title?.includes(title) && c.recipients?.includes('+16025550147'));
  await expect.poll(() => sentTo(safety.title).length, { message: JSON.stringify(sms.calls.slice(-3)) }).toBe(1);
  expect(sentTo(weather.title)).toHaveLength(0);

  await userPage.goto('/alerts');
  await expect(userPage.getByRole('heading', { name: safety.title })).toBeVisible();
  await expect(userPage.getByRole('heading', { name: weather.title })).toHaveCount(0);
});

test('an admin sends an alert to everyone through the wizard; its page and /admin/alerts reach the totals live while the user sees it and marks it safe', async () => {
  await userPage.goto('/alerts');
  const title = `Wrong-way driver I-17 ${Date.now() % 100000}`;

  await adminPage.goto('/admin/create-alert');
  await expect(adminPage.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await adminPage.getByLabel('Alert Title').fill(title);
  await adminPage.getByLabel('Message').fill('A wrong-way driver is heading south on I-17 near Dunlap. Stay right and slow down.');
  await adminPage.getByRole('button', { name: 'Next' }).click();
  await adminPage.getByRole('radio', { name: /Critical/ }).check();
  await adminPage.getByLabel('Category').selectOption('traffic');
  await adminPage.getByRole('checkbox', { name: 'SMS' }).check();
  await adminPage.getByRole('button', { name: 'Next' }).click();
  // The user has no home: only an alert for everyone reaches them, and that is a choice of its own, ticked (issue #38).
  await adminPage.getByRole('button', { name: 'Next' }).click();
  await expect(adminPage.getByRole('alert').filter({ hasText: 'Choose where this alert applies, or choose to send it to everyone' })).toBeVisible();
  await adminPage.getByRole('radio', { name: 'Send to everyone, everywhere' }).check();
  await adminPage.getByRole('button', { name: 'Next' }).click();
  await expect(adminPage.getByText('Tick the box to confirm that this alert goes to everyone, everywhere')).toBeVisible();
  await adminPage.getByRole('checkbox', { name: 'I understand: send this alert to everyone, everywhere' }).check();
  await adminPage.getByRole('button', { name: 'Next' }).click();
  await adminPage.getByRole('checkbox', { name: 'Preview' }).check();
  await expect(adminPage.getByRole('region', { name: 'Alert preview' })).toContainText(title);
  // Review & Send counts whom the alert reaches; only its confirmation, which carries the count, sends: for everyone,
  // a second time, naming the same number.
  const reach = adminPage.getByRole('region', { name: 'Who this alert will reach' });
  await expect(reach).toContainText(/This alert will reach [\d,]+ (people|person)/);
  const count = /This alert will reach ([\d,]+ (?:people|person))/.exec(await reach.innerText())![1];
  await adminPage.getByRole('button', { name: `Send to ${count}`, exact: true }).click();
  await expect(reach.getByRole('alert')).toContainText(`Confirm once more that all ${count} should receive it.`);
  await adminPage.getByRole('button', { name: `Yes, send to everyone, everywhere: ${count}`, exact: true }).click();
  await expect(adminPage.getByText('Alert created and sent successfully!')).toBeVisible();
  // The console goes to the alert's own page, whose card follows the deliveries live.
  await expect(adminPage).toHaveURL(/\/admin\/alerts\/[0-9a-f-]{36}$/);

  const card = adminPage.getByRole('listitem').filter({ has: adminPage.getByRole('heading', { name: title }) });
  await expect(card.locator('.delivery-icon.delivery-sent-to-provider').first()).toBeVisible();
  await expect(card.getByLabel(`Totals for ${title}`)).toContainText('Success rate: 100%');
  await expect(adminPage.getByRole('progressbar', { name: `SMS delivery progress for ${title}` })).toBeVisible();

  // the user's open screen got it without a reload
  await expect(userPage.getByRole('heading', { name: title })).toBeVisible();
  await expect(userPage.getByRole('alert').filter({ hasText: `CRITICAL ALERT: ${title}` })).toBeVisible();
  // a critical alert takes the screen over until the person acknowledges it (issue #40)
  await userPage
    .getByRole('alertdialog', { name: `Critical alert ${title}` })
    .getByRole('button', { name: 'I understand' })
    .click();
  await userPage.getByRole('button', { name: `I'm Safe: ${title}` }).click();
  await expect(userPage.getByText('Marked as safe')).toBeVisible();
  await userPage.getByRole('button', { name: `Copy alert: ${title}` }).click();
  await expect(userPage.getByText('Alert copied to clipboard')).toBeVisible();

  // the admin's open page shows the read arrive live
  await expect(card.getByLabel('SMS counts')).toContainText(/Read\s*1/);
  // and /admin/alerts lists it with the same totals
  await adminPage.getByRole('link', { name: 'Back to Alerts' }).click();
  const listed = adminPage.getByRole('listitem').filter({ has: adminPage.getByRole('heading', { name: title }) });
  // its one person read it: a receipt from the person themselves, so now All Delivered
  await expect(listed.locator('.delivery-icon.delivery-all-delivered').first()).toBeVisible();
  await expect(listed.getByLabel(`Totals for ${title}`)).toContainText('Success rate: 100%');
  await expect(listed.getByLabel('SMS counts')).toContainText(/Read\s*1/);
});

test('history filters, pages, and exports the current page as CSV with checked cells', async () => {
  const stamp = `hist${randomBytes(3).toString('hex')}`;
  for (let i = 0; i < 11; i++) {
    await apiAlert(adminPage, {
      // the newest (last made) is a formula: it lands on the exported first page
      title: i === 10 ? `=HYPERLINK("x") ${stamp}` : `Storm cell ${stamp} #${i}`,
      message: 'Severe thunderstorm with hail moving east across the valley.',
      type: 'Weather',
      priority: i % 2 ? 'high' : 'low',
      channels: ['sms'],
    });
  }
  await adminPage.goto('/admin/history');
  await adminPage.getByLabel('Search').fill(stamp);
  await expect(adminPage.getByText('11 alerts', { exact: true })).toBeVisible(); // the debounced search applied
  await expect(adminPage.getByText('Showing page 1 of 2')).toBeVisible();
  await adminPage.getByRole('button', { name: 'Next' }).click();
  await expect(adminPage.getByText('Showing page 2 of 2')).toBeVisible();
  await expect(adminPage.locator('tbody tr')).toHaveCount(1);

  await adminPage.getByLabel('Priority').selectOption('high');
  await expect(adminPage.getByText('Showing page')).toHaveCount(0);
  await expect(adminPage.locator('tbody tr')).toHaveCount(5);

  await adminPage.getByLabel('Search').fill(`nothing-matches-${stamp}`);
  await expect(adminPage.getByText('No alerts found')).toBeVisible();
  await expect(adminPage.getByText('Try adjusting your search or filters')).toBeVisible();
  await adminPage.getByRole('button', { name: 'Clear Filters' }).click();

  await adminPage.getByLabel('Search').fill(stamp);
  await adminPage.getByLabel('Type').selectOption('Weather');
  await expect(adminPage.getByText('11 alerts', { exact: true })).toBeVisible();
  await expect(adminPage.getByText('Showing page 1 of 2')).toBeVisible();
  const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^alert-history-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  const rows = csv.trim().split('\r\n');
  expect(rows[0]).toBe('"Date","Type","Title","Priority","Channels","Status"');
  expect(rows).toHaveLength(11); // the header and the current page of 10
  for (const row of rows.slice(1)) expect(row).toMatch(/^"[^"]*","Weather",".*","(HIGH|LOW)","[^"]*","[^"]*"$/);
  expect(rows.find((r) => r.includes('HYPERLINK'))).toContain(`"'=HYPERLINK(""x"") ${stamp}"`);

  await adminPage.getByRole('button', { name: `View Storm cell ${stamp} #9` }).click();
  await expect(adminPage).toHaveURL(/\/admin\/alerts\/[0-9a-f-]{36}$/);
  await expect(adminPage.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
});

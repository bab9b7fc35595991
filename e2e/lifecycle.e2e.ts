import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * An alert's life, watched by the people it concerns (issue 19): an admin draws a polygon on the map and sends the
 * alert; updates it, redrawing the area to take in a second home; then gives the all-clear. Both people's open
 * /alerts show each step live, without a reload; the public CAP message follows.
 */
test.describe.configure({ mode: 'serial' });

// Far from the seeded people and every other journey's homes (Gallup, NM). EAST is about 3 km east (about 190 px at the
// zoom the maps open at): outside the first triangle (about 2 km around HOME), inside the second, drawn 190 px east.
const HOME = { lat: 35.5281, lng: -108.7426 };
const EAST = { lat: 35.5281, lng: -108.7096 };

let admin: { context: BrowserContext; page: Page };
const people: { context: BrowserContext; page: Page }[] = [];
let adminToken: string;

async function personAt(request: APIRequestContext, home: { lat: number; lng: number }) {
  const user = await createUser(request, 'lifecycle');
  const token = await tokenFor(request, user);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: { alertTypes: ['emergency'], severityThreshold: 'low', home, radiusMiles: 100, methods: { push: false, sms: false, email: true, voice: true } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return user;
}

test.beforeAll(async ({ browser, request }) => {
  adminToken = await tokenFor(request, DEMO_ADMIN);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, DEMO_ADMIN, /\/dashboard$/);
  admin = { context, page };
  for (const home of [HOME, EAST]) {
    const user = await personAt(request, home);
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await signIn(p, user, /\/dashboard$/);
    people.push({ context: ctx, page: p });
  }
});

test.afterAll(async () => {
  await admin?.context.close();
  for (const p of people) await p.context.close();
});

/**
 * A sending action's confirmation: its summary and its only sending button name the same number (or nobody); pressed,
 * it sends. Returns that number.
 */
async function confirmedCount(dialog: ReturnType<Page['getByRole']>, action: string) {
  const button = dialog.getByRole('button', { name: new RegExp(`^${action} ([\\d,]+ (people|person)|nobody)$`) });
  await expect(button).toBeVisible();
  const count = (await button.innerText()).slice(action.length + 1);
  await expect(dialog).toContainText(count === 'nobody' ? 'Nobody will receive this alert.' : new RegExp(` ${count}[.,]`));
  await button.click();
  await expect(dialog).toHaveCount(0);
  return count === 'nobody' ? 0 : Number(count.replace(/\D/g, ''));
}

const inWords = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;

/** Three clicks around the map's centre, offset by `dx` pixels. */
async function drawTriangle(map: ReturnType<Page['getByRole']>, size: number, dx = 0) {
  await expect(map.locator('.leaflet-container')).toBeVisible();
  const box = (await map.boundingBox())!;
  const [cx, cy] = [box.width / 2 + dx, box.height / 2];
  for (const [x, y] of [
    [0, -size],
    [-size, size * 0.75],
    [size, size * 0.75],
  ])
    await map.click({ position: { x: cx + x, y: cy + y } });
}

test('drawn, sent, updated to a new area and cleared: the people concerned watch each step live', async ({ request }) => {
  const [home, east] = people;
  for (const p of people) {
    await p.page.goto('/alerts');
    await expect(p.page.getByRole('heading', { name: 'Emergency Alerts' })).toBeVisible();
  }
  const title = `Chlorine leak at the water plant ${Date.now() % 100000}`;

  // The admin draws a triangle around HOME in the wizard and sends.
  await admin.page.goto('/admin/create-alert');
  await admin.page.getByLabel('Alert Title').fill(title);
  await admin.page.getByLabel('Message').fill('Chlorine is leaking at the plant: stay indoors and close the windows.');
  await admin.page.getByRole('button', { name: 'Next' }).click();
  await admin.page.getByRole('radio', { name: /Critical/ }).check();
  await admin.page.getByRole('checkbox', { name: 'Email' }).check();
  await admin.page.getByRole('checkbox', { name: 'Web Push' }).uncheck();
  await admin.page.getByRole('button', { name: 'Next' }).click();
  await admin.page.getByRole('radio', { name: 'Polygon' }).check();
  await admin.page.getByLabel('Search address or coordinates').fill(`${HOME.lat}, ${HOME.lng}`);
  await admin.page.getByRole('button', { name: 'Search' }).click();
  await drawTriangle(admin.page.getByRole('region', { name: 'Alert area map: click to add a corner of the polygon' }), 120);
  await expect(admin.page.getByRole('status').filter({ hasText: 'Polygon with 3 points.' })).toBeVisible();
  await admin.page.getByRole('button', { name: 'Next' }).click();
  await admin.page.getByRole('button', { name: /^Send to [\d,]+ (people|person)$/ }).click();
  await expect(admin.page.getByText('Alert created and sent successfully!')).toBeVisible();

  // HOME's screen shows it as it is sent; EAST's does not.
  const homeCard = (t: string) => home.page.getByRole('listitem').filter({ has: home.page.getByRole('heading', { name: t }) });
  await expect(home.page.getByRole('heading', { name: title })).toBeVisible({ timeout: 15_000 });
  await expect(east.page.getByRole('heading', { name: title })).toHaveCount(0);

  // The admin updates it from its page: a new title, and the area redrawn further east, taking in EAST.
  const auth = { Authorization: `Bearer ${adminToken}` };
  const alert = (await (await request.get(`/api/alerts?search=${encodeURIComponent(title)}`, { headers: auth })).json()).items[0];
  expect(alert.area.type).toBe('polygon');
  await admin.page.goto(`/admin/alerts/${alert.id}`);
  await admin.page.getByRole('button', { name: 'Update alert' }).click();
  const newTitle = `${title}: leak spreading east`;
  await admin.page.getByLabel('Title', { exact: true }).fill(newTitle);
  await admin.page.getByRole('button', { name: 'Clear points' }).click();
  await drawTriangle(admin.page.getByRole('region', { name: 'New area map: click to add a corner of the polygon' }), 100, 190);
  await expect(admin.page.getByRole('status').filter({ hasText: 'Polygon with 3 points.' })).toBeVisible();
  // The update is reviewed first: whom it tells, named on the only button that sends it (issue #38).
  await admin.page.getByRole('button', { name: 'Review the update' }).click();
  const updateDialog = admin.page.getByRole('dialog', { name: `Send version 2 of “${title}”?` });
  await expect(updateDialog).toContainText('Changes: title, area.');
  await expect(updateDialog).toContainText(/newly inside get the alert/);
  const told = await confirmedCount(updateDialog, 'Send update to');
  await expect(admin.page.getByText(`Version 2 is going out to ${inWords(told)}.`)).toBeVisible();
  await expect(admin.page.getByRole('list', { name: 'Versions' })).toContainText('Version 2 · Updated (title, area)');

  // Live on both screens: HOME's card takes the new version; EAST, newly inside, gets the alert.
  // the card says what changed, and when (issue #40)
  await expect(homeCard(newTitle).getByText(/^Updated (just now|\d+m ago): new title and area changed$/)).toBeVisible({ timeout: 15_000 });
  await expect(east.page.getByRole('heading', { name: newTitle })).toBeVisible({ timeout: 15_000 });

  // The all-clear ends it on both screens, with the admin's words.
  await admin.page.getByRole('button', { name: 'Give the all-clear' }).click();
  await admin.page.getByLabel('All-clear message (optional)').fill('The leak is sealed. You can open your windows.');
  await admin.page.getByRole('button', { name: 'Review the all-clear' }).click();
  const clearDialog = admin.page.getByRole('dialog', { name: `Give the all-clear for “${newTitle}”?` });
  await expect(clearDialog.getByRole('region', { name: 'What the all-clear says, per language and channel' })).toContainText(
    'The leak is sealed. You can open your windows.',
  );
  // It tells those a channel reached (here e-mail, whose relay may be down: then nobody), the screens below whatever.
  const cleared = await confirmedCount(clearDialog, 'Send all-clear to');
  await expect(admin.page.getByText(`All clear given: ${inWords(cleared)} this alert reached ${cleared === 1 ? 'is' : 'are'} being told.`)).toBeVisible();
  for (const p of people) {
    const card = p.page.getByRole('listitem').filter({ has: p.page.getByRole('heading', { name: newTitle }) });
    await expect(card.getByText('All clear', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText('The leak is sealed. You can open your windows.')).toBeVisible();
    await expect(card.getByRole('button', { name: /I'm Safe/ })).toHaveCount(0);
  }

  // The public CAP message is the all-clear, referencing the original and the update, with the drawn area.
  const xml = await (await request.get(`/api/alerts/cap/alerts/${alert.id}.xml`)).text();
  expect(xml).toContain('<msgType>Update</msgType>');
  expect(xml).toContain('<responseType>AllClear</responseType>');
  expect(xml).toMatch(new RegExp(`<references>[^<]*,${alert.id},[^<]* [^<]*,${alert.id}-v2,`));
  expect(xml).toMatch(/<polygon>[^<]+<\/polygon>/);
});

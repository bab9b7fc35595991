import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIGNED_IN, SIGNED_OUT } from './support/routes';
import { DEMO_ADMIN, signIn, tokenFor } from './support/users';

/**
 * No page scrolls sideways (issue #40) for a person whose e-mail name is as long as an address allows: 64 characters
 * before the @ (RFC 5321's limit), with no hyphen or space where a line could break, so the name the sidebar, the
 * welcome heading and the profile show (the part before the @) is one 64-character run. Every route a user and an
 * administrator can open, at 320 px (the narrowest phone), 390 px (a common phone) and 1440 px (a desktop).
 */
const VIEWPORTS = [
  { width: 320, height: 640 },
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

/** A 64-character e-mail name, unique per run: letters, digits and dots only (a browser breaks a line at none of them). */
function longEmail(tag: string) {
  const unique = randomBytes(4).toString('hex');
  const head = `${tag}.${unique}.`;
  const local = head + 'christopheralexandermontgomeryrichardsonthethirdofphoenix'.slice(0, 64 - head.length);
  expect(local).toHaveLength(64);
  return `${local}@example.test`;
}

/** The paths routes.tsx declares (its relative children under /dashboard and /admin made whole), catch-alls aside. */
function declaredRoutes(): string[] {
  const source = readFileSync(join(__dirname, '..', 'web', 'src', 'app', 'routes.tsx'), 'utf8');
  const table = source.slice(source.indexOf('export const routes'));
  const adminStart = table.indexOf("path: '/admin'");
  const paths: string[] = [];
  for (const match of table.matchAll(/path: '([^']+)'/g)) {
    const path = match[1];
    if (path === '*') continue;
    const parent = match.index! > adminStart ? '/admin' : '/dashboard';
    paths.push(path.startsWith('/') ? path : `${parent}/${path}`);
  }
  return paths;
}

const CONSOLE = [
  '/admin',
  '/admin/alerts',
  '/admin/alerts/:id',
  '/admin/create-alert',
  '/admin/quick-send',
  '/admin/history',
  '/admin/settings',
  '/admin/moderation',
  '/admin/products',
  '/admin/help-requests',
  '/admin/contact-groups',
  '/admin/contact-groups/:id',
];

/** Everything wider than the window, for the message: which elements stick out, and by how much. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const wide = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && getComputedStyle(el).position !== 'fixed')
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { by: root.scrollWidth - width, wide };
  });
}

/** Opens a route and waits for its page: its main heading, and no spinner (the data is in, so widths are final). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('.spinner')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** Every route in turn; one list of the pages that scroll sideways, so one run names them all. */
async function sweep(page: Page, paths: readonly string[], ids: Record<string, string> = {}) {
  const problems: string[] = [];
  for (const route of paths) {
    const path = route.replace(':id', ids[route] ?? '');
    await open(page, path);
    const { by, wide } = await overflow(page);
    if (by > 0) problems.push(`${path}: ${by} px wider than the window (${wide.join(', ')})`);
  }
  return problems;
}

/** A phone's sidebar (opened by Menu) holds the whole name and address without scrolling sideways itself. */
async function sidebarFits(page: Page, path: string, email: string) {
  await open(page, path);
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  const sidebar = page.locator('aside.sidebar');
  await expect(sidebar.getByText(email, { exact: true })).toBeVisible();
  const fits = await sidebar.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const inside = Array.from(el.querySelectorAll<HTMLElement>('*')).every((c) => c.getBoundingClientRect().right <= box.right + 0.5);
    return { inside, scrolls: el.scrollWidth > el.clientWidth };
  });
  expect(fits, `${path}: the sidebar's content stays inside it`).toEqual({ inside: true, scrolls: false });
  expect((await overflow(page)).by, `${path} with the sidebar open`).toBeLessThanOrEqual(0);
}

async function signUp(request: APIRequestContext, email: string) {
  const account = { email, password: `pw-${randomBytes(6).toString('hex')}` };
  const res = await request.post('/auth/v1/signup', { data: account });
  expect(res.status(), await res.text()).toBe(200);
  return account;
}

// each sweep opens a dozen or two pages in turn
test.describe.configure({ timeout: 300_000 });

let user: { email: string; password: string };
let admin: { email: string; password: string };
let alertId: string;
let groupId: string;

test.beforeAll(async ({ request }) => {
  const adminToken = await tokenFor(request, DEMO_ADMIN);
  const auth = { Authorization: `Bearer ${adminToken}` };
  user = await signUp(request, longEmail('user'));
  admin = await signUp(request, longEmail('admin'));
  const me = await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${await tokenFor(request, admin)}` } });
  expect(me.status(), await me.text()).toBe(200);
  const promoted = await request.put(`/auth/v1/admin/users/${(await me.json()).id}`, { headers: auth, data: { app_metadata: { role: 'admin' } } });
  expect(promoted.status(), await promoted.text()).toBe(200);
  // an alert for everyone, with a long unbroken word in it too: the user's alert pages and the console's details show it
  const created = await request.post('/api/alerts', {
    headers: auth,
    data: {
      title: 'Overflow check: Superstitionfreewayeastboundclosure',
      message: 'Expect delays near Superstitionfreewayeastboundexit199westboundramp until further notice.',
      category: 'traffic',
      severity: 'low',
      channels: ['push'],
      everyone: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  alertId = (await created.json()).id;
  // a contact group with a long name and a member with a 64-character e-mail name: the group's page shows both
  const group = await request.post('/api/alerts/admin/contact-groups', {
    headers: auth,
    data: { name: `Overflow check: Superstitionfreewayeastboundroadcrews ${randomBytes(3).toString('hex')}` },
  });
  expect(group.status(), await group.text()).toBe(201);
  groupId = (await group.json()).id;
  const member = await request.post(`/api/alerts/admin/contact-groups/${groupId}/members`, {
    headers: auth,
    data: { kind: 'external', name: 'Superstitionfreeway Eastboundclosure', email: longEmail('contact'), phone: '+16025550199' },
  });
  expect(member.status(), await member.text()).toBe(201);
});

test('the sweep covers every route routes.tsx declares', () => {
  const swept = new Set([...SIGNED_OUT, ...SIGNED_IN, ...CONSOLE]);
  expect(declaredRoutes().filter((path) => !swept.has(path))).toEqual([]);
});

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('signed out: no public page scrolls sideways', async ({ page }) => {
      expect(await sweep(page, SIGNED_OUT)).toEqual([]);
    });

    test('a user with a 64-character e-mail name: no page scrolls sideways, and the name shows whole', async ({ page }) => {
      await signIn(page, user);
      expect(await sweep(page, SIGNED_IN, { '/alerts/:id': alertId })).toEqual([]);
      const name = user.email.split('@')[0];
      await open(page, '/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
      await sidebarFits(page, '/dashboard', user.email);
      await open(page, '/profile');
      await expect(page.getByText(user.email).first()).toBeVisible();
    });

    test('an administrator with a 64-character e-mail name: no console page scrolls sideways', async ({ page }) => {
      await signIn(page, admin, /\/(dashboard|admin)$/);
      expect(await sweep(page, CONSOLE, { '/admin/alerts/:id': alertId, '/admin/contact-groups/:id': groupId })).toEqual([]);
      await sidebarFits(page, '/admin', admin.email);
    });
  });
}

test.describe('at 390 px, the preferences map', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('draws its zoom buttons under the unsaved-changes bar, never over it', async ({ page }) => {
    await signIn(page, user);
    await open(page, '/dashboard/alerts');
    const zoomIn = page.getByRole('button', { name: 'Zoom in' });
    await expect(zoomIn).toBeVisible();
    // a change makes the bar appear at the bottom of the screen (by keyboard: the page may show a warning banner)
    await page.getByRole('switch', { name: 'Crime alerts' }).focus();
    await page.keyboard.press('Space');
    const bar = page.locator('.save-bar');
    await expect(bar).toBeVisible();
    const barTop = (await bar.boundingBox())!.y;
    // scroll the page until the zoom button is just below the bar's top edge, then ask what is drawn there
    const zoom = (await zoomIn.boundingBox())!;
    await page.evaluate((by) => window.scrollBy(0, by), zoom.y - (barTop + 4));
    const box = (await zoomIn.boundingBox())!;
    expect(Math.abs(box.y - (barTop + 4))).toBeLessThan(2);
    const onTop = await page.evaluate(({ x, y }) => !!document.elementFromPoint(x, y)?.closest('.save-bar'), {
      x: box.x + box.width / 2,
      y: box.y + box.height / 2,
    });
    expect(onTop, 'the bar, not the zoom button, is drawn where they overlap').toBe(true);
    // and scrolled clear of the bar, the button is there to press
    await zoomIn.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -200));
    await zoomIn.click({ trial: true });
  });
});

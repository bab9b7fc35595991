import { expect, test, type APIRequestContext } from '@playwright/test';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';

// Far from the seeded people (Phoenix) and from every other journey's homes, so only these two are located near it.
const HOME = { lat: 34.9025, lng: -110.1585 };
// 5 km east: well outside the triangle drawn below (about 2 km around HOME), inside any default 50 km circle.
const EAST = { lat: 34.9025, lng: -110.1036 };

async function userAt(request: APIRequestContext, home: { lat: number; lng: number }) {
  const user = await createUser(request, 'areas');
  const token = await tokenFor(request, user);
  const res = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: { alertTypes: ['emergency'], severityThreshold: 'low', home, radiusMiles: 100, methods: { push: false, sms: false, email: true, voice: true } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { token };
}

const titlesFor = async (request: APIRequestContext, token: string) =>
  ((await (await request.get('/api/alerts/me/alerts?pageSize=50', { headers: { Authorization: `Bearer ${token}` } })).json()).items as { title: string }[]).map(
    (a) => a.title,
  );

test('an admin draws a triangle around a home on the map: it reaches the home inside and not the one 5 km away', async ({ page, request }) => {
  const inside = await userAt(request, HOME);
  const outside = await userAt(request, EAST);
  const adminToken = await tokenFor(request, DEMO_ADMIN);
  const title = `Chemical spill ${Date.now() % 100000}`;

  await signIn(page, DEMO_ADMIN, /\/dashboard$/);
  await page.goto('/admin/create-alert');
  await page.getByLabel('Alert Title').fill(title);
  await page.getByLabel('Message').fill('A tanker spilled chlorine: stay indoors and close the windows.');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: /Critical/ }).check();
  await page.getByRole('checkbox', { name: 'Email' }).check();
  await page.getByRole('checkbox', { name: 'Web Push' }).uncheck();
  await page.getByRole('button', { name: 'Next' }).click();

  // Location & Timing: a polygon, the map centred on the home by typed coordinates, three clicks around it.
  await page.getByRole('radio', { name: 'Polygon' }).check();
  await page.getByLabel('Search address or coordinates').fill(`${HOME.lat}, ${HOME.lng}`);
  await page.getByRole('button', { name: 'Search' }).click();
  const map = page.getByRole('region', { name: 'Alert area map: click to add a corner of the polygon' });
  await expect(map.locator('.leaflet-container')).toBeVisible();
  const box = (await map.boundingBox())!;
  const cx = box.width / 2;
  const cy = box.height / 2;
  // No area is no alert (issue #38); a polygon of fewer than 3 corners is none either.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Choose where this alert applies, or choose to send it to everyone' })).toBeVisible();
  await map.click({ position: { x: cx, y: cy - 120 } });
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'A polygon needs at least 3 points' })).toBeVisible();
  for (const [dx, dy] of [
    [-120, 90],
    [120, 90],
  ]) {
    await map.click({ position: { x: cx + dx, y: cy + dy } });
  }
  await expect(page.getByRole('status').filter({ hasText: 'Polygon with 3 points.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Polygon points' }).getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Next' }).click();

  // Review & Send counts the audience; send, then compare with a preview of the same triangle moved far from anyone.
  await expect(page.getByText('Polygon with 3 points')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Who this alert will reach' })).toContainText(/This alert will reach [\d,]+ (people|person)/);
  await page.getByRole('button', { name: /^Send to [\d,]+ (people|person)$/ }).click();
  await expect(page.getByText('Alert created and sent successfully!')).toBeVisible();

  const auth = { Authorization: `Bearer ${adminToken}` };
  const list = await (await request.get(`/api/alerts?search=${encodeURIComponent(title)}`, { headers: auth })).json();
  const alert = list.items[0];
  expect(alert.area.type).toBe('polygon');
  expect(alert.area.points).toHaveLength(4); // closed: first = last
  const body = { title, message: 'Preview only, nothing is sent.', severity: 'critical', category: 'public_safety', channels: ['email'] };
  const preview = async (points: [number, number][]) =>
    (await (await request.post('/api/alerts/audience', { headers: auth, data: { ...body, area: { type: 'polygon', points } } })).json()).concerned as number;
  const drawn = await preview(alert.area.points);
  const nowhere = await preview(alert.area.points.map(([lat, lng]: [number, number]) => [lat - 60, lng]));
  expect(drawn - nowhere).toBe(1); // the home inside, not the one outside (the unlocated count in both)

  expect(await titlesFor(request, inside.token)).toContain(title);
  expect(await titlesFor(request, outside.token)).not.toContain(title);

  await page.goto(`/admin/alerts/${alert.id}`);
  await expect(page.getByText('Drawn area (polygon with 3 corners)')).toBeVisible();
  await expect(page.getByRole('region', { name: `Area of the alert ${title}` }).locator('path.leaflet-interactive')).toHaveCount(1);
});

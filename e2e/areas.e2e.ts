import { expect, test, type APIRequestContext } from '@playwright/test';
import { createUser, DEMO_ADMIN, signIn, tokenFor } from './support/users';
import { sendHeldEmailsNow } from './support/held-deliveries';
import { startSmtpSink } from './support/providers';

// Far from the seeded people (Phoenix) and from every other journey's homes, so only these two are located near it.
const HOME = { lat: 34.9025, lng: -110.1585 };
// 5 km east: well outside the triangle drawn below (about 2 km around HOME), inside any default 50 km circle.
const EAST = { lat: 34.9025, lng: -110.1036 };

/** A person who gets alerts by e-mail, living at `home` (null: no home on file). */
async function userAt(request: APIRequestContext, home: { lat: number; lng: number } | null) {
  const user = await createUser(request, 'areas');
  const token = await tokenFor(request, user);
  const res = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      ...(home ? { home } : {}),
      radiusMiles: 100,
      methods: { push: false, sms: false, email: true, voice: true },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { token, email: user.email };
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
  await expect(page.getByRole('definition').filter({ hasText: 'Drawn area (polygon with 3 corners)' })).toBeVisible();
  await expect(page.getByRole('region', { name: `Area of the alert ${title}` }).locator('path.leaflet-interactive')).toHaveCount(1);
});

// Two villages 9 km apart, far from every other journey's homes: five people live in each.
const NORTH_HOLLOW = { lat: 35.2051, lng: -110.7034 };
const SOUTH_HOLLOW = { lat: 35.2051, lng: -110.6045 };
const around = (c: { lat: number; lng: number }, i: number) => ({ lat: c.lat + (i % 3) * 0.0008, lng: c.lng + Math.floor(i / 3) * 0.0008 });

test('an admin draws two polygons, adds a contact group, previews and sends; the reach map fills in live in a second admin’s window', async ({
  browser,
  page,
  request,
}) => {
  test.slow();
  // A retry works half a degree south, clear of the people the first attempt left.
  const shift = (c: { lat: number; lng: number }) => ({ lat: c.lat - 0.5 * test.info().retry, lng: c.lng });
  const [north, south] = [shift(NORTH_HOLLOW), shift(SOUTH_HOLLOW)];
  for (const village of [north, south]) for (let i = 0; i < 5; i++) await userAt(request, around(village, i));
  // Between the villages, in neither polygon: not reached.
  const between = await userAt(request, { lat: north.lat, lng: (north.lng + south.lng) / 2 });

  // A colleague made an admin, whose console will watch the alert go out.
  const colleague = await createUser(request, 'areas-admin');
  const me = await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${await tokenFor(request, colleague)}` } });
  const promoted = await request.put(`/auth/v1/admin/users/${(await me.json()).id}`, {
    headers: { Authorization: `Bearer ${await tokenFor(request, DEMO_ADMIN)}` },
    data: { app_metadata: { role: 'admin' } },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);

  // The e-mails go to a mail relay of the journey's own, as the console's settings name it; the one before is put back.
  const adminAuth = { Authorization: `Bearer ${await tokenFor(request, DEMO_ADMIN)}` };

  // The waterworks crew, a contact group: an engineer with an account and no home on file, and a contractor with none.
  const engineer = await userAt(request, null);
  const crew = `Hollows waterworks crew ${Date.now() % 100000}`;
  const contractorEmail = `contractor.${Date.now() % 100000}@hollows-pumps.example`;
  const created = await request.post('/api/alerts/admin/contact-groups', { headers: adminAuth, data: { name: crew } });
  expect(created.status(), await created.text()).toBe(201);
  const groupId = (await created.json()).id as string;
  for (const member of [
    { kind: 'user', email: engineer.email },
    { kind: 'external', name: 'Pump contractor', email: contractorEmail, language: 'en' },
  ]) {
    const added = await request.post(`/api/alerts/admin/contact-groups/${groupId}/members`, { headers: adminAuth, data: member });
    expect(added.status(), await added.text()).toBe(201);
  }
  const smtp = await startSmtpSink();
  const emailBefore = (await (await request.get('/api/alerts/admin/settings', { headers: adminAuth })).json()).email;
  const relay = await request.put('/api/alerts/admin/settings', {
    headers: adminAuth,
    data: { email: { enabled: true, url: smtp.url, from: 'Beacon Alerts <alerts@beacon.test>' } },
  });
  expect(relay.status(), await relay.text()).toBe(200);
  try {
    await sendAndWatch();
  } finally {
    await request.put('/api/alerts/admin/settings', { headers: adminAuth, data: { email: emailBefore } });
    await smtp.close();
  }

  async function sendAndWatch() {
    const title = `Boil-water notice for the Hollows ${Date.now() % 100000}`;
    await signIn(page, DEMO_ADMIN, /\/dashboard$/);
    await page.goto('/admin/create-alert');
    await page.getByLabel('Alert Title').fill(title);
    await page.getByLabel('Message').fill('The wells of both villages failed a test: boil tap water for one minute before drinking it.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: 'Email' }).check();
    await page.getByRole('checkbox', { name: 'Web Push' }).uncheck();
    await page.getByRole('button', { name: 'Next' }).click();

    // Two polygons, each a triangle of about 2 km around its village, each named.
    const map = page.getByRole('region', { name: 'Alert area map: click to add a corner of the polygon' });
    const triangleAround = async (village: { lat: number; lng: number }) => {
      await page.getByLabel('Search address or coordinates').fill(`${village.lat}, ${village.lng}`);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(map.locator('.leaflet-container')).toBeVisible();
      const box = (await map.boundingBox())!;
      for (const [dx, dy] of [
        [0, -120],
        [-120, 90],
        [120, 90],
      ]) {
        await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + dy } });
      }
    };
    await page.getByRole('radio', { name: 'Polygon' }).check();
    await triangleAround(north);
    await page.getByLabel('Name of part 1 (optional)').fill('North Hollow');
    await page.getByRole('button', { name: 'Add a polygon' }).click();
    await triangleAround(south);
    await page.getByLabel('Name of part 2 (optional)').fill('South Hollow');
    // and the crew, wherever they live
    await page.getByLabel('Search contact groups').fill(crew);
    await page.getByRole('checkbox', { name: new RegExp(`^${crew}`) }).check();
    await expect(page.getByRole('list', { name: 'Chosen contact groups' }).getByRole('listitem')).toContainText(['2 members, of them 1 without an account']);
    await page.getByRole('button', { name: 'Next' }).click();

    // The review lists both parts and the crew, and counts the ten people in the parts and the crew's two, not the one
    // between; the audience says how many each target concerns.
    const parts = page.getByRole('list', { name: 'Area parts' }).getByRole('listitem');
    await expect(parts).toHaveText(['North Hollow: Polygon with 3 corners', 'South Hollow: Polygon with 3 corners']);
    const audience = page.getByRole('region', { name: 'Who this alert will reach' });
    await expect(audience).toContainText('This alert will reach 12 people');
    const targets = audience.getByRole('list', { name: 'People per target' });
    await expect(targets).toContainText('Area: 10 people');
    await expect(targets.getByRole('list', { name: 'Parts of the area' }).getByRole('listitem')).toHaveText([
      'Part 1 (North Hollow): 5 people',
      'Part 2 (South Hollow): 5 people',
    ]);
    await expect(targets).toContainText(`${crew}: 2 people, of them 1 without an account`);
    await page.getByRole('button', { name: 'Send to 12 people', exact: true }).click();
    await expect(page.getByText('Alert created and sent successfully!')).toBeVisible();

    const auth = { Authorization: `Bearer ${await tokenFor(request, DEMO_ADMIN)}` };
    const alert = (await (await request.get(`/api/alerts?search=${encodeURIComponent(title)}`, { headers: auth })).json()).items[0];
    expect(alert.area.type).toBe('multi');
    expect(alert.area.parts.map((p: { type: string; description?: string }) => [p.type, p.description])).toEqual([
      ['polygon', 'North Hollow'],
      ['polygon', 'South Hollow'],
    ]);
    expect(alert.groups).toEqual([{ id: groupId, name: crew, memberCount: 2, externalCount: 1 }]);
    expect(await titlesFor(request, between.token)).not.toContain(title);
    expect(await titlesFor(request, engineer.token)).toContain(title);

    // The colleague's console on the alert: its e-mails wait for the digest's hour, so none of the twelve is reached yet.
    const context = await browser.newContext();
    try {
      const watcher = await context.newPage();
      await signIn(watcher, colleague, /\/(dashboard|admin)/);
      await watcher.goto(`/admin/alerts/${alert.id}`);
      await expect(watcher.getByRole('region', { name: `Area of the alert ${title}` }).locator('path.leaflet-interactive')).toHaveCount(2);
      const table = watcher.getByRole('table', { name: 'Recipients by state' });
      const cell = (state: string, column: string) =>
        table
          .getByRole('row', { name: new RegExp(`^${state}\\b`) })
          .getByRole('cell')
          .nth(['All recipients', 'On the map', 'Too few to place', 'No home on file'].indexOf(column));
      await expect(cell('Not yet', 'On the map')).toHaveText('10', { timeout: 15_000 });
      // the crew has no home on the map: counted apart, never placed
      await expect(cell('Not yet', 'No home on file')).toHaveText('2');
      await expect(cell('Reached', 'All recipients')).toHaveText('0');
      await expect(
        watcher
          .getByRole('region', { name: `Map of whom the alert ${title} reached` })
          .locator('path.leaflet-interactive')
          .first(),
      ).toBeVisible();

      // The hour comes: the ten e-mails go, and the open console shows them reached without a reload.
      expect(await sendHeldEmailsNow([alert.id])).toBe(12);
      await expect(cell('Reached', 'On the map')).toHaveText('10', { timeout: 15_000 });
      await expect(cell('Reached', 'No home on file')).toHaveText('2');
      await expect(cell('Not yet', 'All recipients')).toHaveText('0');
    } finally {
      await context.close();
    }
    // each of the twelve got the alert's e-mail, the crew included, and no one else did
    const mailed = new Set(smtp.mails.filter((m) => m.subject.includes(title)).flatMap((m) => m.to));
    expect(mailed.size).toBe(12);
    expect([...mailed].some((to) => to.includes(engineer.email))).toBe(true);
    expect([...mailed].some((to) => to.includes(contractorEmail))).toBe(true);
  }
});

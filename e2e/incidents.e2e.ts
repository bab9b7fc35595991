import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { createUser, DEMO_ADMIN, signIn } from './support/users';

test('a user reports an incident with a photo and a map-picked location; an admin verifies it; it shows on the public map', async ({ browser, request }) => {
  const reporter = await createUser(request, 'reporter');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, reporter);
  const description = `Wrong-way driver northbound in the southbound lanes of SR 51 ${Date.now() % 100000}`;
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: 'test' } } })
    .toBuffer();

  await page.goto('/dashboard/report-incident');
  await expect(page.getByRole('heading', { name: 'Report Incident' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please fill in all required fields')).toBeVisible();
  await page.getByRole('radio', { name: 'Wrong-way Driver' }).check();
  await page.getByLabel('Description').fill(description);
  await page.getByLabel('Photo (optional)').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please select a location on the map')).toBeVisible();
  const pickMap = page.getByRole('region', { name: 'Incident location map' });
  // the picker opens at zoom 13: the tiles it asks for are of that zoom (TILE_URL is /tiles/{z}/{x}/{y}.png here)
  await expect(pickMap.locator('img.leaflet-tile').first()).toHaveAttribute('src', /\/tiles\/13\/\d+\/\d+\.png$/);
  await pickMap.click({ position: { x: 220, y: 140 } });
  await expect(page.getByLabel('Latitude')).not.toHaveValue('');
  await page.getByLabel('Location Name (optional)').fill('SR 51 at Glendale Ave');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Step 3 of 3: Review' })).toBeVisible();
  await expect(page.getByText('photo.jpg')).toBeVisible();
  await page.getByRole('button', { name: 'Submit Report' }).click();
  await expect(page.getByText('Incident reported successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, DEMO_ADMIN);
  await admin.goto('/admin/moderation');
  await expect(admin.getByRole('heading', { name: 'Moderation Queue' })).toBeVisible();
  const item = admin.getByRole('listitem').filter({ hasText: description });
  await expect(item).toBeVisible();
  // who reported it, with their record (their first report), and marked urgent
  await expect(item).toContainText(`Reported by ${reporter.email} · first-time reporter`);
  await expect(item.getByText('Urgent', { exact: true })).toBeVisible();
  const img = item.getByRole('img');
  await expect(img).toBeVisible();
  // the stored photo is an image served with nosniff and without its EXIF metadata
  const src = (await img.getAttribute('src'))!;
  const served = await request.get(src);
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  expect(served.headers()['content-type']).toMatch(/^image\//);
  expect((await sharp(await served.body()).metadata()).exif).toBeUndefined();

  // a visitor already watching the public map sees the report appear when it is verified, without a reload
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/map');
  await expect(visitor.getByRole('checkbox', { name: /^Verified Reports \(24h\)/ })).toBeVisible();
  await visitor.waitForLoadState('networkidle');
  const markers = visitor.getByTestId('incident-marker');
  const before = await markers.count();
  // named by the type's label, never the stored value
  const labelled = visitor.locator('[data-testid="incident-marker"][aria-label="Verified report: Wrong-way Driver at SR 51 at Glendale Ave"]');
  const labelledBefore = await labelled.count();

  await item.getByRole('button', { name: 'Verify' }).click();
  // the alerts service makes the draft from the incident.verified event; the toast says so once it is there
  const review = admin.getByRole('link', { name: 'Review the draft alert' });
  await expect(review).toBeVisible();
  await expect(admin.getByText('Report verified. A draft critical alert was created.')).toBeVisible();
  // straight to the draft, wherever it sits in the alert list
  await review.click();
  await expect(admin).toHaveURL(/\/admin\/alerts\/[0-9a-f-]{36}$/);
  await expect(admin.getByText('Wrong-way driver near SR 51 at Glendale Ave').first()).toBeVisible();
  await expect(markers).toHaveCount(before + 1);
  await expect(labelled).toHaveCount(labelledBefore + 1);
  await expect(visitor.locator('[data-testid="incident-marker"][aria-label*="wrong-way-driver"]')).toHaveCount(0);

  // the public map's feed (no token) now has it
  const verified = await request.get('/api/incidents/incidents/verified?hours=24');
  expect(verified.status()).toBe(200);
  const items = (await verified.json()).items as { description: string; lat: number; lng: number }[];
  const mine = items.find((i) => i.description === description);
  expect(mine).toBeDefined();
});

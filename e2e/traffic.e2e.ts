import { expect, test } from '@playwright/test';
import { createUser, signIn } from './support/users';

test('the cameras page pages through the seed and shows Image unavailable for a broken camera', async ({ page, request }) => {
  const user = await createUser(request, 'cameras');
  await signIn(page, user);
  await page.goto('/dashboard/cameras');
  const summary = page.getByText(/^Showing \d+ of \d+ cameras$/);
  await expect(summary).toHaveText(/^Showing 9 of (\d+) cameras$/);
  const total = Number((await summary.innerText()).match(/of (\d+)/)![1]);
  expect(total).toBeGreaterThanOrEqual(100);
  // the headline counts the cameras that are available; the seed has a few that are not
  const available = Number((await page.getByText(/^\d+ Cameras Available$/).innerText()).split(' ')[0]);
  expect(available).toBeLessThan(total);
  await expect(page.getByText('Auto-refresh every 60s')).toBeVisible();
  await expect(page.getByTestId('camera-card')).toHaveCount(9);

  await page.getByRole('button', { name: `Show More Cameras (${total - 9} remaining)` }).click();
  await expect(page.getByTestId('camera-card')).toHaveCount(18);
  await expect(summary).toHaveText(`Showing 18 of ${total} cameras`);

  // unavailable cameras sort last: show them all and find the placeholders
  while (await page.getByRole('button', { name: /^Show More Cameras/ }).count()) {
    await page.getByRole('button', { name: /^Show More Cameras/ }).click();
  }
  await expect(page.getByTestId('camera-card')).toHaveCount(total);
  const unavailable = page.locator('[data-testid="camera-card"][data-unavailable="true"]');
  await expect(unavailable.first()).toBeVisible();
  await expect(unavailable.first().getByText('Image unavailable')).toBeVisible();
  // cameras whose image URL fails to load join them once the browser has tried (available - shown-as-available)
  await expect.poll(async () => unavailable.count()).toBeGreaterThan(total - available);

  const link = page.getByRole('link', { name: /^View Full image of / }).first();
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
});

test('the public map shows markers and zones, filters by search, toggles layers and opens a camera, with no internet tiles', async ({ page }) => {
  const outside: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol.startsWith('http')) outside.push(r.url());
  });
  await page.goto('/map');
  for (const zone of ['high-crime-area', 'school-zone', 'construction-zone', 'event-impact-zone']) {
    await expect(page.getByTestId(`danger-zone-${zone}`)).toBeAttached();
  }
  const cameras = page.getByTestId('stat-cameras');
  await expect(cameras).not.toHaveText('0');
  const allCameras = Number(await cameras.innerText());
  expect(allCameras).toBeGreaterThanOrEqual(100);
  const located = (await (await page.request.get('/api/traffic/cameras/located')).json()).items as unknown[];
  expect(allCameras).toBe(located.length);

  // markers drawn from the data: up to 40 of a kind are plain markers (CLUSTER_THRESHOLD), more are clustered
  const CLUSTER_THRESHOLD = 40;
  const active = (await (await page.request.get('/api/traffic/events/active')).json()).items as { category: string }[];
  expect(active.length).toBeLessThanOrEqual(CLUSTER_THRESHOLD);
  const roadwork = active.filter((e) => e.category === 'roadwork').length;
  expect(active.length - roadwork).toBeGreaterThan(0);
  const eventMarkers = page.getByTestId('traffic-event-marker');
  // every active event but roadwork, which starts hidden
  await expect(eventMarkers).toHaveCount(active.length - roadwork);
  if (roadwork > 0) {
    await page.getByTestId('layer-toggle-roadwork').check();
    await expect(eventMarkers).toHaveCount(active.length);
    await page.getByTestId('layer-toggle-roadwork').uncheck();
    await expect(eventMarkers).toHaveCount(active.length - roadwork);
  }
  // all cameras are too many for plain markers: those in view are single markers or clusters showing how many they hold
  const camerasDrawn = async () => {
    const clustered = (await page.locator('.marker-cluster').allInnerTexts()).reduce((n, t) => n + Number(t.trim()), 0);
    return (await page.getByTestId('camera-marker').count()) + clustered;
  };
  await expect.poll(camerasDrawn).toBeGreaterThan(0);
  expect(await camerasDrawn()).toBeLessThanOrEqual(allCameras);

  const search = page.getByPlaceholder('Search locations, cameras...');
  await search.fill('I-17');
  await expect.poll(async () => Number(await cameras.innerText())).toBeLessThan(allCameras);
  const i17 = Number(await cameras.innerText());
  expect(i17).toBeGreaterThan(0);
  // few enough to be drawn one marker each: the map shows exactly what the stats count
  expect(i17).toBeLessThanOrEqual(CLUSTER_THRESHOLD);
  await expect(page.getByTestId('camera-marker')).toHaveCount(i17);
  await search.fill('i-17'); // case-insensitive
  await expect(cameras).toHaveText(String(i17));
  await expect(page.getByTestId('camera-marker')).toHaveCount(i17);

  // layers: roadwork starts off, the rest on; toggling and Clear All
  await expect(page.getByTestId('layer-toggle-roadwork')).not.toBeChecked();
  await expect(page.getByTestId('layer-toggle-dangerZones')).toBeChecked();
  await page.getByTestId('layer-toggle-dangerZones').uncheck();
  await expect(page.getByTestId('danger-zone-school-zone')).toHaveCount(0);
  await page.getByTestId('layer-toggle-dangerZones').check();
  await expect(page.getByTestId('danger-zone-school-zone')).toBeAttached();

  // one camera alone is a plain marker: open its popup, then the modal
  const first = await page.request.get('/api/traffic/cameras').then((r) => r.json());
  const list = (Array.isArray(first) ? first : (first.items ?? first.cameras)) as {
    roadway: string;
    description?: string;
    direction?: string;
    image_url?: string;
    imageUrl?: string;
  }[];
  const target = list.find(
    (c) => c.description && (c.imageUrl ?? c.image_url) && !/unavailable|offline|maintenance/i.test(`${c.description} ${c.imageUrl ?? c.image_url}`),
  )!;
  await search.fill(target.description!);
  await expect(cameras).toHaveText('1');
  const modal = page.getByRole('dialog');
  // The filtered markers are drawn again once the search settles (clustering turns off), which can close a popup
  // opened a moment before: open it again until its button opens the modal.
  await expect(async () => {
    const view = page.getByRole('button', { name: 'View Camera' });
    if (!(await view.isVisible())) await page.getByTestId('camera-marker').first().click({ timeout: 2_000 });
    await view.click({ timeout: 2_000 });
    await expect(modal).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(modal.getByText('Last updated', { exact: false })).toBeVisible();
  await expect(modal.getByRole('link', { name: /View Full Size/ })).toHaveAttribute('target', '_blank');
  await modal.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByTestId('camera-marker')).toHaveCount(0);
  await expect(page.getByTestId('danger-zone-high-crime-area')).toHaveCount(0);
  expect(outside).toEqual([]);
});

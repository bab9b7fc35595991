import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { createUser, signIn, tokenFor } from './support/users';

async function signedInPage(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

/** The caller's points as the API reports them (the inbox worker awards them a moment after the action). */
async function pointsOf(request: APIRequestContext, token: string) {
  const res = await request.get('/api/incidents/community/points/me', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { points: number }).points;
}

test('a user posts, another comments and likes, the author sees the comment live and reaches the next level', async ({ browser, request }) => {
  const author = await createUser(request, 'author');
  const neighbour = await createUser(request, 'neighbour');
  const [authorToken, neighbourToken] = await Promise.all([tokenFor(request, author), tokenFor(request, neighbour)]);
  const title = `Wrong-way driver on Loop 101 ${Date.now() % 100000}`;

  // Regular starts at 51 points (LEVELS in libs/contracts), 5 a post: nine earlier posts through the API and the
  // one below through the screen leave the author at 50, so the neighbour's like is the one that crosses it
  for (let n = 0; n < 9; n++) {
    const res = await request.post('/api/incidents/community/posts', {
      headers: { Authorization: `Bearer ${authorToken}` },
      data: {
        title: `Earlier road tip ${n}`,
        category: 'traffic-tip',
        description: `Earlier tip number ${n}: leave extra room on the freeway ramps.`,
        lat: 33.45,
        lng: -112.07,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await expect.poll(() => pointsOf(request, authorToken)).toBe(45);

  const authorPage = await signedInPage(browser, author);
  await authorPage.goto('/dashboard/community');
  await expect(authorPage.getByRole('heading', { name: 'Community Forum' })).toBeVisible();
  const authorSidebar = authorPage.getByRole('complementary', { name: 'Community sidebar' });
  await expect(authorSidebar.getByTestId('my-points')).toHaveText('45 points');
  await expect(authorSidebar.getByTestId('my-level')).toHaveText('Level 1 · Newcomer');

  await authorPage.getByRole('button', { name: '+ New Post' }).click();
  const dialog = authorPage.getByRole('dialog', { name: 'Create New Post' });
  await dialog.getByLabel('Title').fill('Hi');
  await dialog.getByLabel('Category').selectOption('wrong-way-driver');
  await dialog.getByLabel('Description').fill('Too short');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Title must be at least 5 characters')).toBeVisible();
  await expect(dialog.getByText('Description must be at least 20 characters')).toBeVisible();
  await dialog.getByLabel('Title').fill(title);
  // user text is shown as text, never as markup
  await dialog.getByLabel('Description').fill('Saw a car driving north in the southbound lanes near Scottsdale Rd. <b>Stay right.</b>');
  await dialog.getByRole('button', { name: 'Next' }).click();
  const pickMap = dialog.getByRole('region', { name: 'Post location map' });
  // the picker opens at zoom 13: the tiles it asks for are of that zoom (TILE_URL is /tiles/{z}/{x}/{y}.png here)
  await expect(pickMap.locator('img.leaflet-tile').first()).toHaveAttribute('src', /\/tiles\/13\/\d+\/\d+\.png$/);
  await pickMap.click({ position: { x: 200, y: 120 } });
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(authorPage.getByText('Post created successfully!')).toBeVisible();
  const mine = authorPage.getByRole('article', { name: title });
  await expect(mine).toBeVisible();
  await expect(mine.getByText('<b>Stay right.</b>', { exact: false })).toBeVisible();
  await expect.poll(() => pointsOf(request, authorToken)).toBe(50);
  await authorPage.reload();
  await expect(authorSidebar.getByTestId('my-points')).toHaveText('50 points');
  await expect(authorSidebar.getByTestId('my-level')).toHaveText('Level 1 · Newcomer');
  await expect(authorSidebar.getByText('1 point to Level 2 (Regular)', { exact: true })).toBeVisible();
  // the author keeps the post's comments open: the neighbour's comment must arrive there without a reload
  await mine.getByRole('button', { name: 'Comments (0)' }).click();
  await expect(mine.getByText('No comments yet. Start the conversation.')).toBeVisible();

  const neighbourPage = await signedInPage(browser, neighbour);
  await neighbourPage.goto('/dashboard/community');
  const seen = neighbourPage.getByRole('article', { name: title });
  await expect(seen).toBeVisible();
  await seen.getByRole('button', { name: 'Like (0)' }).click();
  await expect(seen.getByRole('button', { name: 'Like (1)' })).toHaveAttribute('aria-pressed', 'true');
  await seen.getByRole('button', { name: 'Comments (0)' }).click();
  await seen.getByRole('textbox', { name: 'Add a comment' }).fill('Thanks, I saw it too and called 911.');
  await seen.getByRole('button', { name: 'Post Comment' }).click();
  // the comment list, not the textarea: the live event can render the comment before the form clears
  await expect(seen.getByRole('list', { name: 'Comments' }).getByText('Thanks, I saw it too and called 911.', { exact: true })).toBeVisible();
  await expect(seen.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');

  // live on the author's open page (the gateway pushes community:comment): the comment and the count
  await expect(mine.getByRole('list', { name: 'Comments' }).getByText('Thanks, I saw it too and called 911.', { exact: true })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Comments (1)' })).toBeVisible();

  // the like's point lifts the author to Regular; the commenter has 2 for the comment and nothing for liking
  await expect.poll(() => pointsOf(request, authorToken)).toBe(51);
  await expect.poll(() => pointsOf(request, neighbourToken)).toBe(2);
  await authorPage.reload();
  await expect(authorSidebar.getByTestId('my-points')).toHaveText('51 points');
  await expect(authorSidebar.getByTestId('my-level')).toHaveText('Level 2 · Regular');
  await expect(mine.getByRole('button', { name: 'Like (1)' })).toBeVisible();
  await neighbourPage.reload();
  const neighbourSidebar = neighbourPage.getByRole('complementary', { name: 'Community sidebar' });
  await expect(neighbourSidebar.getByTestId('my-points')).toHaveText('2 points');
  await expect(neighbourSidebar.getByTestId('my-level')).toHaveText('Level 1 · Newcomer');
});

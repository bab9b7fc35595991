import { expect, test, type Browser, type Page } from '@playwright/test';
import { createUser, signIn } from './support/users';

async function signedInPage(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

async function points(page: Page) {
  const res = await page.evaluate(async () => {
    const raw = localStorage.getItem('beacon.auth') ?? sessionStorage.getItem('beacon.auth');
    const token = raw ? JSON.parse(raw).access_token : '';
    const r = await fetch('/api/incidents/community/points/me', { headers: { Authorization: `Bearer ${token}` } });
    return r.json();
  });
  return res as { points: number; level: number; levelName: string };
}

test('a user posts, another comments and likes, and the author earns points', async ({ browser, request }) => {
  const author = await createUser(request, 'author');
  const neighbour = await createUser(request, 'neighbour');
  const authorPage = await signedInPage(browser, author);
  const title = `Wrong-way driver on Loop 101 ${Date.now() % 100000}`;

  await authorPage.goto('/dashboard/community');
  await expect(authorPage.getByRole('heading', { name: 'Community Forum' })).toBeVisible();
  expect(await points(authorPage)).toMatchObject({ points: 0, levelName: 'New Member' });

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
  await dialog.getByRole('region', { name: 'Post location map' }).click({ position: { x: 200, y: 120 } });
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(authorPage.getByText('Post created successfully!')).toBeVisible();
  const post = authorPage.getByRole('article', { name: title });
  await expect(post).toBeVisible();
  await expect(post.getByText('<b>Stay right.</b>', { exact: false })).toBeVisible();
  await expect.poll(async () => (await points(authorPage)).points).toBe(5);
  expect((await points(authorPage)).levelName).toBe('Newcomer');

  const neighbourPage = await signedInPage(browser, neighbour);
  await neighbourPage.goto('/dashboard/community');
  const seen = neighbourPage.getByRole('article', { name: title });
  await expect(seen).toBeVisible();
  await seen.getByRole('button', { name: /^Like \(0\)/ }).click();
  await expect(seen.getByRole('button', { name: /^Like \(1\)/ })).toHaveAttribute('aria-pressed', 'true');
  await seen.getByRole('button', { name: /^Comments/ }).click();
  await seen.getByRole('textbox', { name: 'Add a comment' }).fill('Thanks, I saw it too and called 911.');
  await seen.getByRole('button', { name: 'Post Comment' }).click();
  // the comment list, not the textarea: the live event can render the comment before the form clears
  await expect(seen.getByRole('list', { name: 'Comments' }).getByText('Thanks, I saw it too and called 911.')).toBeVisible();
  await expect(seen.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');

  // the author's open page shows the new comment live, and the like point arrives
  await expect.poll(async () => (await points(authorPage)).points).toBe(6);
  expect((await points(neighbourPage)).points).toBe(2);
  await authorPage.reload();
  const mine = authorPage.getByRole('article', { name: title });
  await expect(mine.getByRole('button', { name: /^Like \(1\)/ })).toBeVisible();
  await expect(authorPage.getByRole('complementary', { name: 'Community sidebar' })).toContainText('6');
});

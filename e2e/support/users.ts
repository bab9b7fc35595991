import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

export const DEMO_ADMIN = { email: 'admin@beacon.local', password: 'beacon-admin-2024' };
export const DEMO_USER = { email: 'demo@beacon.local', password: 'beacon-demo-2024' };

export function uniqueEmail(tag = 'user') {
  return `${tag}-${randomBytes(4).toString('hex')}@example.test`;
}

/** A fresh account made through the identity API (faster than the sign-up screen, which has its own test). */
export async function createUser(request: APIRequestContext, tag = 'user') {
  const user = { email: uniqueEmail(tag), password: `pw-${randomBytes(6).toString('hex')}` };
  const res = await request.post('/auth/v1/signup', { data: user });
  expect(res.status(), await res.text()).toBe(200);
  return user;
}

/** Signs in through the real screen and waits for the landing page of the dashboard (or `expectPath`). */
export async function signIn(page: Page, user: { email: string; password: string }, expectPath: RegExp = /\/dashboard$/) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(expectPath);
}

/** An access token for API calls in a test (e.g. to set up data an admin would create). */
export async function tokenFor(request: APIRequestContext, user: { email: string; password: string }) {
  const res = await request.post('/auth/v1/token?grant_type=password', { data: user });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).access_token as string;
}

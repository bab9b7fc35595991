import { expect, test } from '@playwright/test';
import { createUser, DEMO_ADMIN, signIn, uniqueEmail } from './support/users';

test('sign up, sign in, come back to the remembered page, stay signed in across a reload, sign out', async ({ page }) => {
  const email = uniqueEmail('signup');
  const password = 'correct-horse-battery';

  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill('something-else');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  // the system under test auto-confirms accounts: no request to verify an address that already is verified
  await expect(page.getByText('Account created successfully! You can sign in now.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // a protected page is remembered through the sign-in
  await page.goto('/');
  await page.goto('/dashboard/community');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Signed in successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/community$/);
  // history was replaced: Back skips the sign-in screen and returns to where the visitor was before
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/dashboard');
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('complementary', { name: 'Dashboard' }).getByText(email)).toBeVisible();

  await page.getByRole('complementary', { name: 'Dashboard' }).getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password shows the service message', async ({ page, request }) => {
  const user = await createUser(request, 'wrongpw');
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('the sign-in form checks its fields before calling the service', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('123');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
});

test('without Remember me the session ends with the tab', async ({ page, context, request }) => {
  const user = await createUser(request, 'tabonly');
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Remember me').uncheck();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const other = await context.newPage();
  await other.goto('/dashboard');
  await expect(other).toHaveURL(/\/login$/);
});

test('a signed-in user who is not an admin is kept out of /admin; an admin gets in', async ({ page, request }) => {
  const user = await createUser(request, 'notadmin');
  await signIn(page, user);
  await page.goto('/admin/history');
  await expect(page).toHaveURL(/\/dashboard$/);
  const apiRes = await page.request.get('/api/alerts/admin/alerts');
  expect([401, 403, 404]).toContain(apiRes.status());

  await page.context().clearCookies();
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('complementary', { name: 'Admin' })).toBeVisible();
});

test('the header and mobile menu follow the auth state', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'FAQ' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Sign Up' })).toBeVisible();

  const user = await createUser(request, 'menu');
  await signIn(page, user);
  await page.goto('/faq');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Alerts' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
  // the phone's bottom bar: four sections and More, which holds the rest (issue 20: none off-screen)
  const bar = page.getByRole('navigation', { name: 'Sections', exact: true });
  await expect(bar.getByRole('link', { name: 'Maps' })).toBeVisible();
  await bar.getByRole('button', { name: 'More' }).click();
  await expect(bar.getByRole('link', { name: 'Cameras' })).toBeVisible();
});

import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { createUser, signIn } from './support/users';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} width`, () => {
    // axe-core is injected as a script, which the app's own Content-Security-Policy would (rightly) block
    test.use({ viewport: { width: viewport.width, height: viewport.height }, bypassCSP: true });

    test('the landing page: sections, links and accessibility', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', '/signup');
      await expect(page.getByRole('link', { name: 'Get Alerts' })).toHaveAttribute('href', '/login');
      for (const feature of ['Live Detection', 'Instant Alerts', 'Detailed Dashboard', 'Crisis Intelligence']) {
        await expect(page.getByRole('heading', { name: feature })).toBeVisible();
      }
      await expect(page.getByText(/simulated/i).first()).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    test('FAQ: search, category, deep link and accessibility', async ({ page }) => {
      await page.goto('/faq');
      await page.getByRole('searchbox', { name: 'Search questions' }).fill('money-back');
      const question = page.getByRole('button', { name: 'Is there a free trial or a money-back guarantee?' });
      await expect(question).toBeVisible();
      await question.click();
      await expect(page).toHaveURL(/#free-trial$/);
      await expect(question).toHaveAttribute('aria-expanded', 'true');
      await page.getByRole('searchbox', { name: 'Search questions' }).fill('zzzz-nothing');
      await expect(page.getByText('No results found')).toBeVisible();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expectNoSeriousA11yViolations(page);

      await page.goto('/faq#location-sharing');
      const deep = page.locator('[aria-expanded="true"]');
      await expect(deep).toHaveCount(1);
      await expect(deep).toBeInViewport();
    });

    test('premium: purchasing is disabled with the spec message', async ({ page }) => {
      await page.goto('/premium');
      await page.getByRole('button', { name: 'Choose Single User plan' }).click();
      await expect(page.getByText('Premium subscriptions are currently disabled')).toBeVisible();
      await page.getByRole('button', { name: 'Contact Sales' }).click();
      await expect(page.getByText('Contact feature is currently disabled')).toBeVisible();
    });

    test('store: filters, sorting, Load More, empty state and accessibility', async ({ page, request }) => {
      const user = await createUser(request, `store-${viewport.name}`);
      await signIn(page, user);
      await page.goto('/dashboard/store');
      await expect(page.getByLabel('In Stock Only')).toBeChecked();
      await expect(page.getByText(/^Showing 12 of \d+ products$/)).toBeVisible();
      await page.getByRole('button', { name: 'Load More Products' }).click();
      await expect(page.getByText(/^Showing 24 of \d+ products$/)).toBeVisible();

      await page.getByLabel('Sort by').selectOption({ label: 'Price: Low to High' });
      await expect(page.getByText(/^Showing 12 of \d+ products$/)).toBeVisible();
      await expect(page.getByRole('region', { name: 'All Products' })).toHaveAttribute('aria-busy', 'false');
  const prices = await page.getByRole('region', { name: 'All Products' }).locator('.product-price').allInnerTexts();
      const values = prices.map((p) => Number(p.replace(/[^0-9.]/g, '')));
      expect(values.length).toBeGreaterThan(1);
      expect([...values].sort((a, b) => a - b)).toEqual(values);

      await page.getByLabel('Search products').fill('zzz-no-such-thing');
      await expect(page.getByText('No products found')).toBeVisible();
      await expect(page.getByText('Try adjusting your search or filters')).toBeVisible();
      await page.getByLabel('Search products').fill('');
      await expect(page.getByText(/^Showing 12 of \d+ products$/)).toBeVisible();

      const featured = page.getByRole('region', { name: /Featured Products/ });
      await expect(featured.getByRole('article')).toHaveCount(3);
      const buy = page.getByRole('link', { name: /^Buy Now .* \(opens in a new tab\)$/ }).first();
      if (await buy.count()) await expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
      await page.getByRole('button', { name: /^Add to Cart / }).first().click();
      await expect(page.getByText('Shopping cart feature coming soon!')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  });
}

test('profile: change the password, then sign in with the new one', async ({ page, request }) => {
  const user = await createUser(request, 'pwchange');
  await signIn(page, user);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change password' }).click();
  const next = 'a-brand-new-passphrase-42';
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password', { exact: true }).fill(next);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password updated successfully!')).toBeVisible();

  await page.getByLabel('Account').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await signIn(page, { email: user.email, password: next });
});

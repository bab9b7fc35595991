import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { createUser, signIn, tokenFor } from './support/users';

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

      // category, In Stock Only and Featured Only, each compared with what the API counts for the same filter
      const token = await tokenFor(request, user);
      const apiTotal = async (filter: string) => {
        const res = await request.get(`/api/store/products?${filter}&limit=1`, { headers: { Authorization: `Bearer ${token}` } });
        expect(res.status()).toBe(200);
        return (await res.json()).total as number;
      };
      const all = page.getByRole('region', { name: 'All Products' });
      const shows = async (total: number) => {
        await expect(all.getByText(`Showing ${Math.min(12, total)} of ${total} ${total === 1 ? 'product' : 'products'}`, { exact: true })).toBeVisible();
        await expect(all.getByRole('article')).toHaveCount(Math.min(12, total));
      };
      const traffic = 'category=Traffic%20Control';
      await page.getByLabel('Category').selectOption('Traffic Control');
      const inStock = await apiTotal(`${traffic}&inStockOnly=true`);
      expect(inStock).toBeGreaterThan(0);
      await shows(inStock);
      for (const label of await all.locator('.product-category').allInnerTexts()) expect(label).toContain('Traffic Control');
      // the seed's one out-of-stock Traffic Control product shows only once In Stock Only is unticked
      const barricade = all.getByRole('article', { name: 'Folding Road Barricade' });
      await expect(barricade).toHaveCount(0);
      await page.getByLabel('In Stock Only').uncheck();
      const any = await apiTotal(traffic);
      expect(any).toBeGreaterThan(inStock);
      await shows(any);
      await expect(barricade.getByText('Out of Stock', { exact: true }).first()).toBeVisible();

      await page.getByLabel('Featured Only').check();
      const featuredTraffic = await apiTotal(`${traffic}&featuredOnly=true`);
      expect(featuredTraffic).toBeGreaterThan(0);
      expect(featuredTraffic).toBeLessThan(any);
      await shows(featuredTraffic);
      await expect(all.getByRole('article').filter({ hasNot: page.getByText('Featured', { exact: true }) })).toHaveCount(0);
      // a seeded affiliate product (catalogue.ts): its Buy Now goes to the retailer in a new tab, with no opener
      const flares = all.getByRole('article', { name: 'LED Road Flares (3 Pack)' });
      const buy = flares.getByRole('link', { name: 'Buy Now LED Road Flares (3 Pack) (opens in a new tab)' });
      await expect(buy).toHaveAttribute('target', '_blank');
      await expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(buy).toHaveAttribute('href', /^https:\/\//);

      await page.getByLabel('Featured Only').uncheck();
      await page.getByLabel('In Stock Only').check();
      await page.getByLabel('Category').selectOption({ label: 'All Categories' });
      await page
        .getByRole('button', { name: /^Add to Cart / })
        .first()
        .click();
      await expect(page.getByText('Shopping cart feature coming soon!')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  });
}

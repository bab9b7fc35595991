import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Product, ProductAnalytics, ProductCategory, ProductPage, StoreStats } from '@beacon/contracts';
import {
  createTestDatabase,
  RunningService,
  startTestIdentity,
  startTestService,
  TestDatabase,
  TestIdentity,
  testRedisPrefix,
  jsonClient,
} from '@beacon/testing';
import { StoreEnv } from '../config/env.dto';
import { storeDatabase } from '../database';
import { CATALOGUE } from '../seed/catalogue';
import { seedStore } from '../seed/store.seed';
import { storeService } from '../service';

interface ProductSeed {
  name?: string;
  description?: string;
  price?: number;
  category?: ProductCategory;
  featured?: boolean;
  inStock?: boolean;
  viewCount?: number;
  /** Age in hours; larger is older. */
  ageHours?: number;
}

describe('store API', () => {
  let db: TestDatabase;
  let svc: RunningService<StoreEnv>;
  let identity: TestIdentity;
  const redis = testRedisPrefix();
  let userToken: string;
  let otherUserToken: string;
  let adminToken: string;
  const userId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase([storeDatabase]);
    identity = await startTestIdentity();
    svc = await startTestService(storeService, {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWKS_URL: identity.jwksUrl,
    });
    userToken = await identity.token({ id: userId, email: 'user@example.test' });
    otherUserToken = await identity.token({ email: 'other@example.test' });
    adminToken = await identity.token({ email: 'admin@example.test', role: 'admin' });
  });

  afterAll(async () => {
    await svc?.close();
    await identity?.close();
    await db?.drop();
    await redis.cleanup();
  });

  /** Inserts a product the way the service stores it, with a controlled age and view count. */
  async function product(p: ProductSeed = {}): Promise<string> {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO store.store_products (name, description, price, category, featured, in_stock, view_count, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(hours => $8)) RETURNING id`,
      [
        p.name ?? `Product ${randomUUID().slice(0, 8)}`,
        p.description ?? 'A safety product',
        p.price ?? 10,
        p.category ?? 'Safety Gear',
        p.featured ?? false,
        p.inStock ?? true,
        p.viewCount ?? 0,
        p.ageHours ?? 1,
      ],
    );
    return row.id;
  }

  const clear = () => db.query(`TRUNCATE store.store_products CASCADE`);

  const call = jsonClient(() => svc.url);
  const get = <T = any>(path: string, token = userToken) => call('GET', path, token) as Promise<{ status: number; body: T; headers: Headers }>;
  const names = (page: ProductPage) => page.products.map((p) => p.name);

  describe('GET /products', () => {
    beforeAll(async () => {
      await clear();
      await product({
        name: 'Roadside Kit',
        description: 'Jumper cables and a flashlight',
        price: 89.99,
        category: 'Emergency Kits',
        featured: true,
        ageHours: 5,
      });
      await product({ name: 'Glovebox First Aid', description: 'Bandages for the car', price: 24.99, category: 'Emergency Kits', ageHours: 2 });
      await product({
        name: 'Winter Kit',
        description: 'Blanket and FLASHLIGHT for snow',
        price: 64.5,
        category: 'Emergency Kits',
        inStock: false,
        ageHours: 3,
      });
      await product({
        name: 'Weather Radio',
        description: 'Hand crank NOAA radio',
        price: 49.99,
        category: 'Emergency Electronics',
        featured: true,
        viewCount: 7,
        ageHours: 10,
      });
      await product({ name: 'Tactical Flashlight', description: '1200 lumens', price: 29.95, category: 'Emergency Electronics', viewCount: 12, ageHours: 4 });
      await product({ name: 'Hi-Vis Vest', description: 'ANSI class 2', price: 16.99, category: 'Safety Gear', featured: true, inStock: false, ageHours: 1 });
      await product({ name: '50% Off Cones', description: 'Traffic cones', price: 45, category: 'Traffic Control', viewCount: 3, ageHours: 8 });
    });

    it('needs a signed-in user', async () => {
      const res = await get('/products', '');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('token_missing');
    });

    it('defaults to featured first, then newest, 12 a page, with the exact total', async () => {
      const { status, body } = await get<ProductPage>('/products');
      expect(status).toBe(200);
      expect(body.total).toBe(7);
      expect(body.limit).toBe(12);
      expect(body.offset).toBe(0);
      expect(names(body)).toEqual(['Hi-Vis Vest', 'Roadside Kit', 'Weather Radio', 'Glovebox First Aid', 'Winter Kit', 'Tactical Flashlight', '50% Off Cones']);
      expect(body.products[0]).toMatchObject({
        price: 16.99,
        inStock: false,
        featured: true,
        category: 'Safety Gear',
        images: [],
        isAffiliate: false,
        affiliateUrl: null,
      });
    });

    it('searches name and description case-insensitively', async () => {
      const { body } = await get<ProductPage>('/products?search=flashlight&sortBy=newest');
      expect(names(body)).toEqual(['Winter Kit', 'Tactical Flashlight', 'Roadside Kit']);
      expect(body.total).toBe(3);
    });

    it('treats LIKE wildcards in the search as text', async () => {
      const { body } = await get<ProductPage>(`/products?search=${encodeURIComponent('50%')}`);
      expect(names(body)).toEqual(['50% Off Cones']);
      expect((await get<ProductPage>('/products?search=_')).body.total).toBe(0);
    });

    it('combines search, category, price range, in-stock and featured filters', async () => {
      const q = (s: string) => get<ProductPage>(`/products?${s}`).then((r) => r.body);
      expect(names(await q('search=FLASHLIGHT&category=Emergency%20Kits&sortBy=price_low'))).toEqual(['Winter Kit', 'Roadside Kit']);
      expect(names(await q('search=flashlight&category=Emergency%20Kits&inStockOnly=true'))).toEqual(['Roadside Kit']);
      expect(names(await q('category=Emergency%20Kits&minPrice=25&maxPrice=70&sortBy=price_high'))).toEqual(['Winter Kit']);
      expect(names(await q('category=Emergency%20Kits&minPrice=24.99&maxPrice=89.99&inStockOnly=true&sortBy=price_low'))).toEqual([
        'Glovebox First Aid',
        'Roadside Kit',
      ]);
      const featuredInStock = await q('featuredOnly=true&inStockOnly=true');
      expect(names(featuredInStock)).toEqual(['Roadside Kit', 'Weather Radio']);
      expect(featuredInStock.total).toBe(2);
      const none = await q('featuredOnly=true&category=Traffic%20Control');
      expect(none).toMatchObject({ products: [], total: 0 });
      // explicit false is the same as not filtering
      expect((await q('inStockOnly=false&featuredOnly=false')).total).toBe(7);
    });

    it('sorts by price, popularity and age', async () => {
      const sorted = (s: string) => get<ProductPage>(`/products?sortBy=${s}`).then((r) => names(r.body));
      expect(await sorted('price_low')).toEqual([
        'Hi-Vis Vest',
        'Glovebox First Aid',
        'Tactical Flashlight',
        '50% Off Cones',
        'Weather Radio',
        'Winter Kit',
        'Roadside Kit',
      ]);
      expect(await sorted('price_high')).toEqual([
        'Roadside Kit',
        'Winter Kit',
        'Weather Radio',
        '50% Off Cones',
        'Tactical Flashlight',
        'Glovebox First Aid',
        'Hi-Vis Vest',
      ]);
      // by views; products without views newest first
      expect(await sorted('popular')).toEqual([
        'Tactical Flashlight',
        'Weather Radio',
        '50% Off Cones',
        'Hi-Vis Vest',
        'Glovebox First Aid',
        'Winter Kit',
        'Roadside Kit',
      ]);
      expect(await sorted('newest')).toEqual([
        'Hi-Vis Vest',
        'Glovebox First Aid',
        'Winter Kit',
        'Tactical Flashlight',
        'Roadside Kit',
        '50% Off Cones',
        'Weather Radio',
      ]);
    });

    it('pages with limit and offset, keeping the total of the whole filter', async () => {
      const first = (await get<ProductPage>('/products?limit=3&offset=0&sortBy=price_low')).body;
      const second = (await get<ProductPage>('/products?limit=3&offset=3&sortBy=price_low')).body;
      const third = (await get<ProductPage>('/products?limit=3&offset=6&sortBy=price_low')).body;
      expect([first.total, second.total, third.total]).toEqual([7, 7, 7]);
      expect(names(first)).toEqual(['Hi-Vis Vest', 'Glovebox First Aid', 'Tactical Flashlight']);
      expect(names(second)).toEqual(['50% Off Cones', 'Weather Radio', 'Winter Kit']);
      expect(names(third)).toEqual(['Roadside Kit']);
      const beyond = (await get<ProductPage>('/products?limit=3&offset=30')).body;
      expect(beyond).toEqual({ products: [], total: 7, limit: 3, offset: 30 });
      const filtered = (await get<ProductPage>('/products?inStockOnly=true&limit=2&offset=2&sortBy=newest')).body;
      expect(filtered.total).toBe(5);
      expect(names(filtered)).toEqual(['Roadside Kit', '50% Off Cones']);
    });

    it('pages a catalogue larger than one page without repeats, even with equal sort keys', async () => {
      await clear();
      for (let i = 0; i < 30; i++) await product({ name: `Same ${String(i).padStart(2, '0')}`, price: 10, ageHours: 1 });
      const seen: string[] = [];
      let total = 0;
      for (let offset = 0; offset < 30; offset += 12) {
        const { body } = await get<ProductPage>(`/products?sortBy=price_low&offset=${offset}`);
        total = body.total;
        seen.push(...body.products.map((p) => p.id));
        expect(body.products.length).toBe(Math.min(12, 30 - offset));
      }
      expect(total).toBe(30);
      expect(new Set(seen).size).toBe(30);
    });

    it.each([
      ['sortBy=cheapest', 'sortBy must be one of: featured, price_low, price_high, popular, newest'],
      ['category=Toys', 'category must be one of: Emergency Kits, Safety Electronics, Safety Gear, Emergency Electronics, Medical Supplies, Traffic Control'],
      ['limit=0', 'limit must be a whole number from 1 to 48'],
      ['limit=500', 'limit must be a whole number from 1 to 48'],
      ['offset=-1', 'offset must be a whole number of 0 or more'],
      ['inStockOnly=maybe', 'inStockOnly must be true or false'],
      ['minPrice=cheap', 'minPrice must be a number'],
      ['colour=red', 'property colour should not exist'],
    ])('refuses %s with a 400 and a clear message', async (query, message) => {
      const res = await get(`/products?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed', message });
    });

    it('refuses a price range whose minimum is above its maximum', async () => {
      const res = await get('/products?minPrice=50&maxPrice=10');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_price_range', message: 'minPrice cannot be greater than maxPrice' });
    });
  });

  describe('GET /products/featured and /products/:id', () => {
    beforeAll(clear);

    it('returns up to 6 featured products, in stock first, newest first', async () => {
      for (let i = 0; i < 8; i++) await product({ name: `Featured ${i}`, featured: true, ageHours: i + 1, inStock: i !== 0 });
      await product({ name: 'Plain', ageHours: 0 });
      const { status, body } = await get<{ products: Product[] }>('/products/featured');
      expect(status).toBe(200);
      expect(body.products.map((p) => p.name)).toEqual(['Featured 1', 'Featured 2', 'Featured 3', 'Featured 4', 'Featured 5', 'Featured 6']);
      expect((await get<{ products: Product[] }>('/products/featured?limit=2')).body.products).toHaveLength(2);
      expect((await get('/products/featured', '')).status).toBe(401);
    });

    it('returns one product, 404 for an unknown id and 400 for a malformed one', async () => {
      const id = await product({ name: 'Single', price: 12.5 });
      const found = await get<Product>(`/products/${id}`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ id, name: 'Single', price: 12.5, viewCount: 0 });
      expect(new Date(found.body.createdAt).toISOString()).toBe(found.body.createdAt);
      const missing = await get(`/products/${randomUUID()}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'product_not_found', message: 'Product not found' });
      const bad = await get('/products/not-a-uuid');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('invalid_product_id');
    });
  });

  describe('views and analytics', () => {
    let productId: string;
    beforeAll(async () => {
      await clear();
      productId = await product({ name: 'Viewed' });
    });

    it('records a view for the signed-in user, once per de-duplication window', async () => {
      expect((await call('POST', `/products/${productId}/views`)).status).toBe(401);
      const first = await call('POST', `/products/${productId}/views`, userToken);
      expect(first).toMatchObject({ status: 200, body: { recorded: true } });
      const again = await call('POST', `/products/${productId}/views`, userToken);
      expect(again.body).toEqual({ recorded: false });
      expect((await call('POST', `/products/${productId}/views`, otherUserToken)).body).toEqual({ recorded: true });
      const rows = await db.query(`SELECT user_id FROM store.product_views WHERE product_id = $1`, [productId]);
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => r.user_id)).toContain(userId);
      expect((await get<Product>(`/products/${productId}`)).body.viewCount).toBe(2);
      const missing = await call('POST', `/products/${randomUUID()}/views`, userToken);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('product_not_found');
    });

    it('counts simultaneous views by one user once', async () => {
      const id = await product({ name: 'Race' });
      const results = await Promise.all(Array.from({ length: 8 }, () => call('POST', `/products/${id}/views`, userToken)));
      expect(results.filter((r) => r.body.recorded === true)).toHaveLength(1);
      expect((await get<Product>(`/products/${id}`)).body.viewCount).toBe(1);
    });

    it('moves a viewed product up the popular sort', async () => {
      const id = await product({ name: 'Soon popular', ageHours: 100 });
      const tokens = await Promise.all([0, 1, 2].map(() => identity.token()));
      for (const t of tokens) await call('POST', `/products/${id}/views`, t);
      const { body } = await get<ProductPage>('/products?sortBy=popular&limit=1');
      expect(body.products[0].id).toBe(id);
    });

    it('reports total, unique, 7-day and 24-hour views (admin only)', async () => {
      const id = await product({ name: 'Analysed' });
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const views: [string, string][] = [
        [a, '2 hours'],
        [a, '20 hours'],
        [b, '23 hours'], // today
        [b, '3 days'],
        [c, '6 days 23 hours'], // this week
        [a, '8 days'],
        [c, '30 days'], // older
      ];
      for (const [user, ago] of views) {
        await db.query(`INSERT INTO store.product_views (product_id, user_id, viewed_at) VALUES ($1, $2, now() - $3::interval)`, [id, user, ago]);
      }
      const res = await get<ProductAnalytics>(`/products/${id}/analytics`, adminToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ productId: id, totalViews: 7, uniqueViews: 3, viewsThisWeek: 5, viewsToday: 3 });

      const empty = await get<ProductAnalytics>(`/products/${await product()}/analytics`, adminToken);
      expect(empty.body).toMatchObject({ totalViews: 0, uniqueViews: 0, viewsThisWeek: 0, viewsToday: 0 });
      expect((await get(`/products/${id}/analytics`, userToken)).status).toBe(403);
      expect((await get(`/products/${id}/analytics`, '')).status).toBe(401);
      expect((await get(`/products/${randomUUID()}/analytics`, adminToken)).status).toBe(404);
    });
  });

  describe('GET /stats', () => {
    it('counts products, in stock, featured and distinct categories (admin only)', async () => {
      await clear();
      await product({ category: 'Safety Gear', featured: true });
      await product({ category: 'Safety Gear', inStock: false });
      await product({ category: 'Medical Supplies', featured: true, inStock: false });
      await product({ category: 'Traffic Control' });
      const res = await get<StoreStats>('/stats', adminToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        totalProducts: 4,
        inStockProducts: 2,
        featuredProducts: 2,
        categories: 3,
        byCategory: [
          { category: 'Medical Supplies', count: 1 },
          { category: 'Safety Gear', count: 2 },
          { category: 'Traffic Control', count: 1 },
        ],
      });
      const forbidden = await get('/stats', userToken);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe('forbidden');
      expect((await get('/stats', '')).status).toBe(401);
    });
  });

  describe('admin writes', () => {
    const valid = {
      name: 'Road Flare Kit',
      description: 'Three LED flares',
      price: 34.99,
      category: 'Traffic Control',
      images: ['https://cdn.example.com/flare.png', '/api/store/images/led-road-flares-3-pack.svg'],
      featured: true,
      inStock: true,
      isAffiliate: true,
      affiliateUrl: 'https://www.example.com/flares',
    };

    it('creates a product (admin only)', async () => {
      expect((await call('POST', '/products', undefined, valid)).status).toBe(401);
      const forbidden = await call('POST', '/products', userToken, valid);
      expect(forbidden.status).toBe(403);
      const res = await call('POST', '/products', adminToken, valid);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ ...valid, viewCount: 0 });
      expect((await get<Product>(`/products/${res.body.id}`)).body.name).toBe('Road Flare Kit');
      const minimal = await call('POST', '/products', adminToken, { name: '  Whistle  ', price: 5, category: 'Safety Gear' });
      expect(minimal.body).toMatchObject({
        name: 'Whistle',
        description: '',
        images: [],
        featured: false,
        inStock: true,
        isAffiliate: false,
        affiliateUrl: null,
      });
    });

    it.each([
      [{ name: '' }, 'validation_failed', 'Name is required'],
      [{ name: undefined }, 'validation_failed', 'Name is required'],
      [{ name: 'x'.repeat(201) }, 'validation_failed', 'Name must be at most 200 characters'],
      [{ price: -1 }, 'validation_failed', 'Price cannot be negative'],
      [{ price: 1.999 }, 'validation_failed', 'Price must be an amount in dollars with at most 2 decimals'],
      [{ price: 'ten' }, 'validation_failed', 'Price must be an amount in dollars with at most 2 decimals'],
      [
        { category: 'Toys' },
        'validation_failed',
        'Category must be one of: Emergency Kits, Safety Electronics, Safety Gear, Emergency Electronics, Medical Supplies, Traffic Control',
      ],
      [{ affiliateUrl: 'http://www.example.com/flares' }, 'validation_failed', 'Affiliate URL must be an https:// URL'],
      [{ affiliateUrl: 'javascript:alert(1)' }, 'validation_failed', 'Affiliate URL must be an https:// URL'],
      [{ affiliateUrl: null }, 'affiliate_url_required', 'An affiliate product needs an https:// affiliate URL'],
      [{ images: ['javascript:alert(1)'] }, 'validation_failed', 'Each image must be an https:// URL or a path on this site'],
      [{ images: Array(9).fill('https://cdn.example.com/a.png') }, 'validation_failed', 'A product can have at most 8 images'],
      [{ featured: 'yes' }, 'validation_failed', 'featured must be true or false'],
      [{ description: null }, 'validation_failed', 'Description must be text'],
      [{ sku: 'X1' }, 'validation_failed', 'property sku should not exist'],
    ])('refuses %j with %s', async (change, code, message) => {
      const res = await call('POST', '/products', adminToken, { ...valid, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code, message });
    });

    it('updates only the fields sent, checking them like create (admin only)', async () => {
      const created = (await call('POST', '/products', adminToken, valid)).body as Product;
      expect((await call('PATCH', `/products/${created.id}`, userToken, { price: 1 })).status).toBe(403);
      expect((await call('PATCH', `/products/${created.id}`, undefined, { price: 1 })).status).toBe(401);
      const res = await call('PATCH', `/products/${created.id}`, adminToken, { price: 29.5, inStock: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Road Flare Kit', price: 29.5, inStock: false, featured: true, affiliateUrl: valid.affiliateUrl });
      expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());

      // clearing the URL of an affiliate product is refused; turning affiliate off with it is fine
      const orphan = await call('PATCH', `/products/${created.id}`, adminToken, { affiliateUrl: null });
      expect(orphan.status).toBe(400);
      expect(orphan.body.code).toBe('affiliate_url_required');
      const cleared = await call('PATCH', `/products/${created.id}`, adminToken, { isAffiliate: false, affiliateUrl: null });
      expect(cleared.body).toMatchObject({ isAffiliate: false, affiliateUrl: null });
      const noUrl = await call('PATCH', `/products/${created.id}`, adminToken, { isAffiliate: true });
      expect(noUrl.body.code).toBe('affiliate_url_required');

      for (const [change, message] of [
        [{ name: null }, 'Name is required'],
        [{ price: null }, 'Price must be an amount in dollars with at most 2 decimals'],
        [{ category: 'Toys' }, expect.stringContaining('Category must be one of')],
      ] as const) {
        const bad = await call('PATCH', `/products/${created.id}`, adminToken, change);
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ code: 'validation_failed', message });
      }
      expect((await get<Product>(`/products/${created.id}`)).body).toMatchObject({ price: 29.5, isAffiliate: false });
      const missing = await call('PATCH', `/products/${randomUUID()}`, adminToken, { price: 1 });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('product_not_found');
    });

    it('deletes a product and its views (admin only)', async () => {
      const created = (await call('POST', '/products', adminToken, valid)).body as Product;
      await call('POST', `/products/${created.id}/views`, userToken);
      expect((await call('DELETE', `/products/${created.id}`, userToken)).status).toBe(403);
      expect((await call('DELETE', `/products/${created.id}`)).status).toBe(401);
      const res = await call('DELETE', `/products/${created.id}`, adminToken);
      expect(res.status).toBe(204);
      expect((await get(`/products/${created.id}`)).status).toBe(404);
      expect(await db.query(`SELECT 1 FROM store.product_views WHERE product_id = $1`, [created.id])).toEqual([]);
      const again = await call('DELETE', `/products/${created.id}`, adminToken);
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('product_not_found');
    });
  });

  describe('seeded catalogue and its images', () => {
    it('seeds at least 40 products once, every one with an illustration the service serves', async () => {
      await clear();
      const ds = new DataSource({ type: 'postgres', url: db.url });
      await ds.initialize();
      try {
        const lines: string[] = [];
        await seedStore(ds, (l) => lines.push(l));
        await seedStore(ds, (l) => lines.push(l));
        expect(lines).toEqual([`seeded ${CATALOGUE.length} products`, `catalogue already has ${CATALOGUE.length} products; left as is`]);
      } finally {
        await ds.destroy();
      }
      expect(CATALOGUE.length).toBeGreaterThanOrEqual(40);
      const { body } = await get<ProductPage>('/products?limit=48');
      expect(body.total).toBe(CATALOGUE.length);
      expect(new Set(body.products.map((p) => p.category)).size).toBe(6);
      expect((await get<{ products: Product[] }>('/products/featured')).body.products).toHaveLength(6);
      for (const p of body.products) {
        expect(p.images).toHaveLength(1);
        const img = await fetch(`${svc.origin}${p.images[0]}`);
        expect(img.status).toBe(200);
        expect(img.headers.get('content-type')).toContain('image/svg+xml');
        expect(img.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(await img.text()).toContain(`<title>${p.name.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}</title>`);
        if (p.isAffiliate) expect(p.affiliateUrl).toMatch(/^https:\/\//);
      }
      const unknown = await fetch(`${svc.url}/images/nothing.svg`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { code: string }).code).toBe('image_not_found');
    });
  });
});

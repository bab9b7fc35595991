import type { Product } from '@beacon/contracts';

/** Product `i` as the store service answers it, with `extra` over the defaults (component specs). */
export function productFixture(i: number, extra: Partial<Product> = {}): Product {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Product ${i}`,
    description: `Description ${i}`,
    price: 10 + i,
    category: 'Safety Gear',
    images: [`/api/store/images/p${i}.svg`],
    featured: false,
    inStock: true,
    isAffiliate: false,
    affiliateUrl: null,
    viewCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...extra,
  };
}

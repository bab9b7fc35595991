/**
 * The Safety Store vocabulary, shared by services/store and the web app. The store work owns this file.
 * Keep it free of Node-only imports.
 */

export const PRODUCT_CATEGORIES = [
  'Emergency Kits',
  'Safety Electronics',
  'Safety Gear',
  'Emergency Electronics',
  'Medical Supplies',
  'Traffic Control',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export interface ProductCategoryInfo {
  value: ProductCategory;
  label: string;
  /** An emoji shown next to the label; decorative, so screens mark it aria-hidden. */
}

/** The category catalogue: the label of each category (icons and colours are each presenter's: the web's icons and CSS, the store's illustrations). */
export const PRODUCT_CATEGORY_INFO: Record<ProductCategory, ProductCategoryInfo> = {
  'Emergency Kits': { value: 'Emergency Kits', label: 'Emergency Kits' },
  'Safety Electronics': { value: 'Safety Electronics', label: 'Safety Electronics' },
  'Safety Gear': { value: 'Safety Gear', label: 'Safety Gear' },
  'Emergency Electronics': { value: 'Emergency Electronics', label: 'Emergency Electronics' },
  'Medical Supplies': { value: 'Medical Supplies', label: 'Medical Supplies' },
  'Traffic Control': { value: 'Traffic Control', label: 'Traffic Control' },
};

export const PRODUCT_SORTS = ['featured', 'price_low', 'price_high', 'popular', 'newest'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_SORT_LABELS: Record<ProductSort, string> = {
  featured: 'Featured',
  price_low: 'Price: Low to High',
  price_high: 'Price: High to Low',
  popular: 'Most Popular',
  newest: 'Newest',
};

/** Page size of the product list and of Load More. */
export const STORE_PAGE_SIZE = 12;
/** Largest page a client may ask for. */
export const STORE_MAX_PAGE_SIZE = 48;
/** How many featured products are fetched, and how many of them the Featured band shows. */
export const STORE_FEATURED_FETCH = 6;
export const STORE_FEATURED_SHOWN = 3;
/** Prices are US dollars, shown in en-US. */
export const STORE_CURRENCY = 'USD';
export const STORE_LOCALE = 'en-US';
/** Limits a product must respect (the API validates them; forms use them too). */
export const PRODUCT_LIMITS = { nameMax: 200, descriptionMax: 2000, priceMax: 100000, imagesMax: 8, urlMax: 2000 } as const;

export interface Product {
  id: string;
  name: string;
  description: string;
  /** US dollars, two decimals. */
  price: number;
  category: ProductCategory;
  /** Image URLs; the first is shown on cards. */
  images: string[];
  featured: boolean;
  inStock: boolean;
  isAffiliate: boolean;
  /** An https:// URL when isAffiliate. */
  affiliateUrl: string | null;
  /** Recorded views, the key of the 'popular' sort. */
  viewCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Query of GET /api/store/products (all optional). */
export interface ProductFilter {
  search?: string;
  category?: ProductCategory;
  sortBy?: ProductSort;
  limit?: number;
  offset?: number;
  inStockOnly?: boolean;
  featuredOnly?: boolean;
  minPrice?: number;
  maxPrice?: number;
}

export interface ProductPage {
  products: Product[];
  /** Exact number of products matching the filter, across all pages. */
  total: number;
  limit: number;
  offset: number;
}

export interface StoreStats {
  totalProducts: number;
  inStockProducts: number;
  featuredProducts: number;
  /** Number of distinct categories that have at least one product. */
  categories: number;
  byCategory: { category: ProductCategory; count: number }[];
}

export interface ProductAnalytics {
  productId: string;
  totalViews: number;
  /** Distinct signed-in users who viewed the product. */
  uniqueViews: number;
  /** Views in the last 7 days (rolling). */
  viewsThisWeek: number;
  /** Views in the last 24 hours (rolling). */
  viewsToday: number;
}

/** Body of POST /api/store/products (admin). PATCH takes any subset. */
export interface ProductInput {
  name: string;
  description?: string;
  price: number;
  category: ProductCategory;
  images?: string[];
  featured?: boolean;
  inStock?: boolean;
  isAffiliate?: boolean;
  affiliateUrl?: string | null;
}

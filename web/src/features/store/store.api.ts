import { api } from '@/app/api';
import {
  STORE_FEATURED_FETCH,
  STORE_PAGE_SIZE,
  type Product,
  type ProductAnalytics,
  type ProductCategory,
  type ProductInput,
  type ProductPage,
  type ProductSort,
  type StoreStats,
} from '@beacon/contracts';

/** What the store screen filters by; paging is kept by the infinite query, keyed by this object. */
export interface StoreFilters {
  search: string;
  category: ProductCategory | '';
  sortBy: ProductSort;
  inStockOnly: boolean;
  featuredOnly: boolean;
}

/** Spec defaults: sort featured, in-stock only on. */
export const DEFAULT_FILTERS: StoreFilters = { search: '', category: '', sortBy: 'featured', inStockOnly: true, featuredOnly: false };

/** Query string of GET /api/store/products; unset filters are left out. */
export function productQuery(f: StoreFilters & { limit?: number; offset?: number }): string {
  const params = new URLSearchParams();
  if (f.search.trim()) params.set('search', f.search.trim());
  if (f.category) params.set('category', f.category);
  params.set('sortBy', f.sortBy);
  if (f.inStockOnly) params.set('inStockOnly', 'true');
  if (f.featuredOnly) params.set('featuredOnly', 'true');
  params.set('limit', String(f.limit ?? STORE_PAGE_SIZE));
  params.set('offset', String(f.offset ?? 0));
  return params.toString();
}

export const storeApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Load More appends the next page; a different filter is a different cache entry, so paging restarts at 0.
     * Entries are dropped as soon as their filter is left: otherwise going back to it within the default 60 s
     * would show the pages loaded before ("Showing 24 of …") instead of starting again at the first page.
     */
    listProducts: build.infiniteQuery<ProductPage, StoreFilters, number>({
      keepUnusedDataFor: 0,
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (last, _all, lastOffset) => {
          const next = lastOffset + last.products.length;
          return last.products.length > 0 && next < last.total ? next : undefined;
        },
      },
      query: ({ queryArg, pageParam }) => `api/store/products?${productQuery({ ...queryArg, offset: pageParam })}`,
      providesTags: ['Product'],
    }),
    /** The admin table: one page at a time. */
    adminProducts: build.query<ProductPage, { search: string; offset: number; limit: number }>({
      query: ({ search, offset, limit }) =>
        `api/store/products?${productQuery({ ...DEFAULT_FILTERS, inStockOnly: false, sortBy: 'newest', search, offset, limit })}`,
      providesTags: ['Product'],
    }),
    featuredProducts: build.query<{ products: Product[] }, void>({
      query: () => `api/store/products/featured?limit=${STORE_FEATURED_FETCH}`,
      providesTags: ['Product'],
    }),
    recordProductView: build.mutation<{ recorded: boolean }, string>({
      query: (id) => ({ url: `api/store/products/${encodeURIComponent(id)}/views`, method: 'POST' }),
    }),
    storeStats: build.query<StoreStats, void>({
      query: () => 'api/store/stats',
      providesTags: ['ProductStats'],
    }),
    productAnalytics: build.query<ProductAnalytics, string>({
      query: (id) => `api/store/products/${encodeURIComponent(id)}/analytics`,
    }),
    createProduct: build.mutation<Product, ProductInput>({
      query: (body) => ({ url: 'api/store/products', method: 'POST', body }),
      invalidatesTags: ['Product', 'ProductStats'],
    }),
    updateProduct: build.mutation<Product, { id: string; changes: Partial<ProductInput> }>({
      query: ({ id, changes }) => ({ url: `api/store/products/${encodeURIComponent(id)}`, method: 'PATCH', body: changes }),
      invalidatesTags: ['Product', 'ProductStats'],
    }),
    deleteProduct: build.mutation<void, string>({
      query: (id) => ({ url: `api/store/products/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Product', 'ProductStats'],
    }),
  }),
});

export const {
  useListProductsInfiniteQuery,
  useAdminProductsQuery,
  useFeaturedProductsQuery,
  useRecordProductViewMutation,
  useStoreStatsQuery,
  useLazyProductAnalyticsQuery,
  useCreateProductMutation,
  useUpdateProductMutation,
  useDeleteProductMutation,
} = storeApi;

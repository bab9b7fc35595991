import { useEffect, useId, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import {
  PRODUCT_CATEGORIES,
  PRODUCT_CATEGORY_INFO,
  PRODUCT_SORT_LABELS,
  PRODUCT_SORTS,
  STORE_FEATURED_SHOWN,
  type ProductCategory,
  type ProductSort,
} from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { ProductCard, STORE_TOASTS } from './ProductCard';
import { DEFAULT_FILTERS, useFeaturedProductsQuery, useListProductsInfiniteQuery, type StoreFilters } from './store.api';
import './store.css';
import { ChevronDown, ChevronUp, Handshake, List, MessageCircle, Package, Shield, SlidersHorizontal, Star } from 'lucide-react';

/** Typing pauses this long before the search is sent, so each keystroke is not a request. */
export const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

const BLURBS = [
  {
    icon: <Shield size={28} />,
    title: 'Vetted for Safety',
    text: 'Every product is chosen for the situations Beacon alerts you about: breakdowns, crashes, storms and outages.',
  },
  {
    icon: <Handshake size={28} />,
    title: 'Trusted Retailers',
    text: 'Buy Now links open the retailer’s own page in a new tab. Beacon never sees your payment details.',
  },
  {
    icon: <MessageCircle size={28} />,
    title: 'Community Recommended',
    text: 'Suggestions shaped by what Beacon members keep in their cars and homes. Tell us what helped you.',
  },
] as const;

export function StorePage() {
  const [layout, setLayout] = useState<'grid' | 'list'>('grid');
  const [filtersOpen, setFiltersOpen] = useState(true);
  const [searchText, setSearchText] = useState(DEFAULT_FILTERS.search);
  const [filters, setFilters] = useState<Omit<StoreFilters, 'search'>>({
    category: DEFAULT_FILTERS.category,
    sortBy: DEFAULT_FILTERS.sortBy,
    inStockOnly: DEFAULT_FILTERS.inStockOnly,
    featuredOnly: DEFAULT_FILTERS.featuredOnly,
  });
  const search = useDebounced(searchText, SEARCH_DEBOUNCE_MS);
  // The filter object is the cache key of the infinite query: any change starts again at the first page.
  const query = useMemo<StoreFilters>(() => ({ ...filters, search: search.trim() }), [filters, search]);
  const list = useListProductsInfiniteQuery(query);
  const featured = useFeaturedProductsQuery();
  const panelId = useId();

  useEffect(() => {
    if (list.isError) toast.error(STORE_TOASTS.loadFailed, { id: 'store-load-failed' });
  }, [list.isError]);

  const products = list.data?.pages.flatMap((p) => p.products) ?? [];
  const total = list.data?.pages[list.data.pages.length - 1]?.total ?? 0;
  const filtersApply = Boolean(query.search || query.category || query.featuredOnly);
  // a search or a category is a question: the featured band above its answer ("No products found") only confused it
  const featuredShown = query.search || query.category ? [] : (featured.data?.products ?? []).slice(0, STORE_FEATURED_SHOWN);
  const set = <K extends keyof typeof filters>(key: K, value: (typeof filters)[K]) => setFilters((f) => ({ ...f, [key]: value }));

  return (
    <section className="page store-page" aria-labelledby="store-title">
      <div className="page-header">
        <div>
          <h1 id="store-title">Safety Store</h1>
          <p className="muted">Gear that keeps you and your family safe on the road and at home.</p>
        </div>
        <div className="row" role="group" aria-label="Layout">
          <button
            type="button"
            className={`btn btn-outline btn-sm ${layout === 'grid' ? 'is-active' : ''}`}
            aria-pressed={layout === 'grid'}
            onClick={() => setLayout('grid')}
          >
            <span aria-hidden="true">▦</span> Grid view
          </button>
          <button
            type="button"
            className={`btn btn-outline btn-sm ${layout === 'list' ? 'is-active' : ''}`}
            aria-pressed={layout === 'list'}
            onClick={() => setLayout('list')}
          >
            <List aria-hidden="true" size={16} /> List view
          </button>
        </div>
      </div>

      <div className="card store-filters">
        <button
          type="button"
          className="btn btn-ghost filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls={panelId}
          onClick={() => setFiltersOpen((o) => !o)}
        >
          <SlidersHorizontal aria-hidden="true" size={16} /> Filters{' '}
          {filtersOpen ? <ChevronUp aria-hidden="true" size={16} /> : <ChevronDown aria-hidden="true" size={16} />}
        </button>
        <div id={panelId} hidden={!filtersOpen} className="filters-grid">
          <div className="field">
            <label htmlFor={`${panelId}-search`}>Search products</label>
            <input
              id={`${panelId}-search`}
              type="search"
              value={searchText}
              placeholder="Search by name or description"
              onChange={(e) => setSearchText(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${panelId}-category`}>Category</label>
            <select id={`${panelId}-category`} value={filters.category} onChange={(e) => set('category', e.target.value as ProductCategory | '')}>
              <option value="">All Categories</option>
              {PRODUCT_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {PRODUCT_CATEGORY_INFO[c].label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${panelId}-sort`}>Sort by</label>
            <select id={`${panelId}-sort`} value={filters.sortBy} onChange={(e) => set('sortBy', e.target.value as ProductSort)}>
              {PRODUCT_SORTS.map((s) => (
                <option key={s} value={s}>
                  {PRODUCT_SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="stack filters-checks">
            <label className="checkbox">
              <input type="checkbox" checked={filters.inStockOnly} onChange={(e) => set('inStockOnly', e.target.checked)} /> In Stock Only
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={filters.featuredOnly} onChange={(e) => set('featuredOnly', e.target.checked)} /> Featured Only
            </label>
          </div>
        </div>
      </div>

      {featuredShown.length > 0 && (
        <section className="featured-band" aria-labelledby="featured-title">
          <h2 id="featured-title">
            <Star aria-hidden="true" size={18} /> Featured Products
          </h2>
          <div className="product-grid">
            {featuredShown.map((p) => (
              <ProductCard key={p.id} product={p} layout="grid" />
            ))}
          </div>
        </section>
      )}

      <section aria-labelledby="all-products-title" aria-busy={list.isFetching}>
        <div className="row-between">
          <h2 id="all-products-title">All Products</h2>
          {list.isSuccess && products.length > 0 && (
            <p className="muted small" aria-live="polite">
              Showing {products.length} of {total} products
            </p>
          )}
        </div>
        {list.isFetching && !list.isFetchingNextPage ? (
          <div className="full-page-center">
            <Spinner size="lg" label="Loading products" />
          </div>
        ) : products.length === 0 ? (
          <div className="empty-state card" role="status">
            <div aria-hidden="true" className="empty-icon">
              <Package size={40} />
            </div>
            <h3>No products found</h3>
            <p>{filtersApply ? 'Try adjusting your search or filters' : 'Products will be available soon'}</p>
          </div>
        ) : (
          <div className={layout === 'grid' ? 'product-grid' : 'product-list'}>
            {products.map((p) => (
              <ProductCard key={p.id} product={p} layout={layout} />
            ))}
          </div>
        )}
        {list.hasNextPage && products.length > 0 && !(list.isFetching && !list.isFetchingNextPage) && (
          <div className="center load-more">
            <button type="button" className="btn btn-outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {list.isFetchingNextPage ? (
                <>
                  <Spinner size="sm" label="Loading more products" /> Loading...
                </>
              ) : (
                'Load More Products'
              )}
            </button>
          </div>
        )}
      </section>

      <section className="grid-3 store-blurbs" aria-label="Why shop with Beacon">
        {BLURBS.map((b) => (
          <div key={b.title} className="card blurb">
            <div className="blurb-icon" aria-hidden="true">
              {b.icon}
            </div>
            <h3>{b.title}</h3>
            <p className="muted">{b.text}</p>
          </div>
        ))}
      </section>
    </section>
  );
}

import { useEffect, useId, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import { PRODUCT_CATEGORIES, PRODUCT_SORTS, STORE_FEATURED_SHOWN, type ProductCategory, type ProductSort } from '@beacon/contracts';
import { defineMessages } from '@/i18n';
import { Spinner } from '@/common/Spinner';
import { categoryLabel, PRODUCT_SORT_MESSAGES, STORE_TOASTS } from './messages';
import { ProductCard } from './ProductCard';
import { DEFAULT_FILTERS, useFeaturedProductsQuery, useListProductsInfiniteQuery, type StoreFilters } from './store.api';
import './store.css';
import { ChevronDown, ChevronUp, Handshake, LayoutGrid, List, MessageCircle, Package, Shield, SlidersHorizontal, Star } from 'lucide-react';

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

const BLURB_TEXTS = defineMessages({
  vettedTitle: { id: 'store.blurb.vettedTitle', defaultMessage: 'Vetted for Safety' },
  vetted: {
    id: 'store.blurb.vetted',
    defaultMessage: 'Every product is chosen for the situations Beacon alerts you about: breakdowns, crashes, storms and outages.',
  },
  retailersTitle: { id: 'store.blurb.retailersTitle', defaultMessage: 'Trusted Retailers' },
  retailers: {
    id: 'store.blurb.retailers',
    defaultMessage: 'Buy Now links open the retailer’s own page in a new tab. Beacon never sees your payment details.',
  },
  communityTitle: { id: 'store.blurb.communityTitle', defaultMessage: 'Community Recommended' },
  community: {
    id: 'store.blurb.community',
    defaultMessage: 'Suggestions shaped by what Beacon members keep in their cars and homes. Tell us what helped you.',
  },
});

const BLURBS = [
  { key: 'vetted', icon: <Shield size={28} />, title: BLURB_TEXTS.vettedTitle, text: BLURB_TEXTS.vetted },
  { key: 'retailers', icon: <Handshake size={28} />, title: BLURB_TEXTS.retailersTitle, text: BLURB_TEXTS.retailers },
  { key: 'community', icon: <MessageCircle size={28} />, title: BLURB_TEXTS.communityTitle, text: BLURB_TEXTS.community },
] as const;

export function StorePage() {
  const intl = useIntl();
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
    if (list.isError) toast.error(intl.formatMessage(STORE_TOASTS.loadFailed), { id: 'store-load-failed' });
  }, [list.isError, intl]);

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
          <h1 id="store-title">
            <FormattedMessage id="store.page.title" defaultMessage="Safety Store" />
          </h1>
          <p className="muted">
            <FormattedMessage id="store.page.lead" defaultMessage="Gear that keeps you and your family safe on the road and at home." />
          </p>
        </div>
        <div className="row" role="group" aria-label={intl.formatMessage({ id: 'store.page.layout', defaultMessage: 'Layout' })}>
          <button
            type="button"
            className={`btn btn-outline btn-sm ${layout === 'grid' ? 'is-active' : ''}`}
            aria-pressed={layout === 'grid'}
            onClick={() => setLayout('grid')}
          >
            <LayoutGrid aria-hidden="true" size={16} /> <FormattedMessage id="store.page.gridView" defaultMessage="Grid view" />
          </button>
          <button
            type="button"
            className={`btn btn-outline btn-sm ${layout === 'list' ? 'is-active' : ''}`}
            aria-pressed={layout === 'list'}
            onClick={() => setLayout('list')}
          >
            <List aria-hidden="true" size={16} /> <FormattedMessage id="store.page.listView" defaultMessage="List view" />
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
          <SlidersHorizontal aria-hidden="true" size={16} /> <FormattedMessage id="store.filters.toggle" defaultMessage="Filters" />
          {filtersOpen ? <ChevronUp aria-hidden="true" size={16} /> : <ChevronDown aria-hidden="true" size={16} />}
        </button>
        <div id={panelId} hidden={!filtersOpen} className="filters-grid">
          <div className="field">
            <label htmlFor={`${panelId}-search`}>
              <FormattedMessage id="store.filters.search" defaultMessage="Search products" />
            </label>
            <input
              id={`${panelId}-search`}
              type="search"
              value={searchText}
              placeholder={intl.formatMessage({ id: 'store.filters.searchPlaceholder', defaultMessage: 'Search by name or description' })}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${panelId}-category`}>
              <FormattedMessage id="store.filters.category" defaultMessage="Category" />
            </label>
            <select id={`${panelId}-category`} value={filters.category} onChange={(e) => set('category', e.target.value as ProductCategory | '')}>
              <option value="">{intl.formatMessage({ id: 'store.filters.allCategories', defaultMessage: 'All Categories' })}</option>
              {PRODUCT_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryLabel(c, intl)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${panelId}-sort`}>
              <FormattedMessage id="store.filters.sortBy" defaultMessage="Sort by" />
            </label>
            <select id={`${panelId}-sort`} value={filters.sortBy} onChange={(e) => set('sortBy', e.target.value as ProductSort)}>
              {PRODUCT_SORTS.map((s) => (
                <option key={s} value={s}>
                  {intl.formatMessage(PRODUCT_SORT_MESSAGES[s])}
                </option>
              ))}
            </select>
          </div>
          <div className="stack filters-checks">
            <label className="checkbox">
              <input type="checkbox" checked={filters.inStockOnly} onChange={(e) => set('inStockOnly', e.target.checked)} />
              <FormattedMessage id="store.filters.inStockOnly" defaultMessage="In Stock Only" />
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={filters.featuredOnly} onChange={(e) => set('featuredOnly', e.target.checked)} />
              <FormattedMessage id="store.filters.featuredOnly" defaultMessage="Featured Only" />
            </label>
          </div>
        </div>
      </div>

      {featuredShown.length > 0 && (
        <section className="featured-band" aria-labelledby="featured-title">
          <h2 id="featured-title">
            <Star aria-hidden="true" size={18} /> <FormattedMessage id="store.featured.title" defaultMessage="Featured Products" />
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
          <h2 id="all-products-title">
            <FormattedMessage id="store.list.title" defaultMessage="All Products" />
          </h2>
          {list.isSuccess && products.length > 0 && (
            <p className="muted small" aria-live="polite">
              <FormattedMessage
                id="store.list.showing"
                defaultMessage="Showing {shown, number} of {total, plural, one {# product} other {# products}}"
                values={{ shown: products.length, total }}
              />
            </p>
          )}
        </div>
        {list.isFetching && !list.isFetchingNextPage ? (
          <div className="full-page-center">
            <Spinner size="lg" label={intl.formatMessage({ id: 'store.list.loading', defaultMessage: 'Loading products' })} />
          </div>
        ) : products.length === 0 ? (
          <div className="empty-state card" role="status">
            <div aria-hidden="true" className="empty-icon">
              <Package size={40} />
            </div>
            <h3>
              <FormattedMessage id="store.list.empty" defaultMessage="No products found" />
            </h3>
            <p>
              {filtersApply ? (
                <FormattedMessage id="store.list.emptyFiltered" defaultMessage="Try adjusting your search or filters" />
              ) : (
                <FormattedMessage id="store.list.emptySoon" defaultMessage="Products will be available soon" />
              )}
            </p>
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
                  <Spinner size="sm" label={intl.formatMessage({ id: 'store.list.loadingMore', defaultMessage: 'Loading more products' })} />
                  <FormattedMessage id="store.list.loadingShort" defaultMessage="Loading..." />
                </>
              ) : (
                <FormattedMessage id="store.list.loadMore" defaultMessage="Load More Products" />
              )}
            </button>
          </div>
        )}
      </section>

      <section className="grid-3 store-blurbs" aria-label={intl.formatMessage({ id: 'store.blurb.label', defaultMessage: 'Why shop with Beacon' })}>
        {BLURBS.map((b) => (
          <div key={b.key} className="card blurb">
            <div className="blurb-icon" aria-hidden="true">
              {b.icon}
            </div>
            <h3>{intl.formatMessage(b.title)}</h3>
            <p className="muted">{intl.formatMessage(b.text)}</p>
          </div>
        ))}
      </section>
    </section>
  );
}

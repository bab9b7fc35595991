import type { IntlShape, MessageDescriptor } from 'react-intl';
import type { ProductCategory, ProductSort } from '@beacon/contracts';
import { defineMessages } from '@/i18n';

/** The store's category names in the reader's language, keyed by the category (the API's value stays English). */
export const PRODUCT_CATEGORY_MESSAGES: Record<ProductCategory, MessageDescriptor> = defineMessages({
  'Emergency Kits': { id: 'store.category.emergencyKits', defaultMessage: 'Emergency Kits' },
  'Safety Electronics': { id: 'store.category.safetyElectronics', defaultMessage: 'Safety Electronics' },
  'Safety Gear': { id: 'store.category.safetyGear', defaultMessage: 'Safety Gear' },
  'Emergency Electronics': { id: 'store.category.emergencyElectronics', defaultMessage: 'Emergency Electronics' },
  'Medical Supplies': { id: 'store.category.medicalSupplies', defaultMessage: 'Medical Supplies' },
  'Traffic Control': { id: 'store.category.trafficControl', defaultMessage: 'Traffic Control' },
});

/** A category's name for the reader; a category this build does not know is shown as the API names it. */
export const categoryLabel = (category: string, intl: IntlShape): string =>
  category in PRODUCT_CATEGORY_MESSAGES ? intl.formatMessage(PRODUCT_CATEGORY_MESSAGES[category as ProductCategory]) : category;

/** The sort orders of the store's list. */
export const PRODUCT_SORT_MESSAGES: Record<ProductSort, MessageDescriptor> = defineMessages({
  featured: { id: 'store.sort.featured', defaultMessage: 'Featured' },
  price_low: { id: 'store.sort.priceLow', defaultMessage: 'Price: Low to High' },
  price_high: { id: 'store.sort.priceHigh', defaultMessage: 'Price: High to Low' },
  popular: { id: 'store.sort.popular', defaultMessage: 'Most Popular' },
  newest: { id: 'store.sort.newest', defaultMessage: 'Newest' },
});

/** What the store answers actions it does not offer yet, and a list that failed to load (toasts). */
export const STORE_TOASTS = defineMessages({
  details: { id: 'store.toast.details', defaultMessage: 'Product details page coming soon!' },
  wishlist: { id: 'store.toast.wishlist', defaultMessage: 'Wishlist feature coming soon!' },
  cart: { id: 'store.toast.cart', defaultMessage: 'Shopping cart feature coming soon!' },
  loadFailed: { id: 'store.toast.loadFailed', defaultMessage: 'Failed to load products' },
});

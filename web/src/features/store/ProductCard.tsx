import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { FormattedMessage, useIntl } from 'react-intl';
import { PRODUCT_CATEGORY_INFO, type Product } from '@beacon/contracts';
import { formatPrice } from './format';
import { categoryLabel, STORE_TOASTS } from './messages';
import { useRecordProductViewMutation } from './store.api';
import { ArrowUpRight, Heart, Shield } from 'lucide-react';
import { CategoryIcon, INFO_TOAST_ICON, PRODUCT_CATEGORY_ICONS } from '@/common/icons';

/** The part of a button's name only a screen reader hears (which product it acts on). */
const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;

/** A product in the grid, the list or the Featured band. Texts from the API are rendered as text. */
export function ProductCard({ product, layout }: { product: Product; layout: 'grid' | 'list' }) {
  const intl = useIntl();
  const [recordView] = useRecordProductViewMutation();
  const category = PRODUCT_CATEGORY_INFO[product.category];
  const image = product.images[0];
  const titleId = `product-${product.id}-name`;
  // A view is recorded when the user shows interest (details or the retailer link); failures are only logged (spec).
  const viewed = () => {
    recordView(product.id)
      .unwrap()
      .catch((e) => console.warn('Recording a product view failed', e));
  };

  return (
    <article className={`product-card product-${layout}`} aria-labelledby={titleId}>
      <div className="product-image">
        {image ? (
          <img src={image} alt={product.name} loading="lazy" width={400} height={300} />
        ) : (
          <div
            className="product-image-missing"
            role="img"
            aria-label={intl.formatMessage({ id: 'store.product.noImage', defaultMessage: 'No image for {name}' }, { name: product.name })}
          >
            <CategoryIcon icon={category ? PRODUCT_CATEGORY_ICONS[category.value] : Shield} size={48} />
          </div>
        )}
        <div className="product-flags">
          {product.featured && (
            <span className="badge badge-featured">
              <FormattedMessage id="store.product.featured" defaultMessage="Featured" />
            </span>
          )}
          {!product.inStock && (
            <span className="badge badge-out">
              <FormattedMessage id="store.product.outOfStockFlag" defaultMessage="Out of Stock" />
            </span>
          )}
        </div>
        <button
          type="button"
          className="btn btn-ghost product-wishlist"
          aria-label={intl.formatMessage({ id: 'store.product.addToWishlist', defaultMessage: 'Add {name} to wishlist' }, { name: product.name })}
          onClick={() => toast(intl.formatMessage(STORE_TOASTS.wishlist), { icon: INFO_TOAST_ICON })}
        >
          <Heart aria-hidden="true" focusable="false" size={18} />
        </button>
      </div>
      <div className="product-body">
        {category && (
          <span className="product-category" data-category={product.category}>
            <CategoryIcon icon={PRODUCT_CATEGORY_ICONS[category.value]} /> {categoryLabel(category.value, intl)}
          </span>
        )}
        <h3 id={titleId} className="product-name">
          {product.name}
        </h3>
        <p className="product-description">{product.description}</p>
        <div className="product-footer">
          <span className="product-price">{formatPrice(product.price, intl)}</span>
          <div className="product-actions">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => {
                viewed();
                toast(intl.formatMessage(STORE_TOASTS.details), { icon: INFO_TOAST_ICON });
              }}
            >
              <FormattedMessage id="store.product.details" defaultMessage="Details<hidden> for {name}</hidden>" values={{ name: product.name, hidden }} />
            </button>
            {product.isAffiliate && product.affiliateUrl ? (
              <a className="btn btn-primary btn-sm" href={product.affiliateUrl} target="_blank" rel="noopener noreferrer" onClick={viewed}>
                <FormattedMessage
                  id="store.product.buyNow"
                  defaultMessage="Buy Now<hidden> {name} (opens in a new tab)</hidden>"
                  values={{ name: product.name, hidden }}
                />
                <ArrowUpRight aria-hidden="true" focusable="false" size={14} />
              </a>
            ) : (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                disabled={!product.inStock}
                onClick={() => toast(intl.formatMessage(STORE_TOASTS.cart), { icon: INFO_TOAST_ICON })}
              >
                {product.inStock ? (
                  <FormattedMessage id="store.product.addToCart" defaultMessage="Add to Cart<hidden> {name}</hidden>" values={{ name: product.name, hidden }} />
                ) : (
                  <FormattedMessage
                    id="store.product.outOfStock"
                    defaultMessage="Out of Stock<hidden> {name}</hidden>"
                    values={{ name: product.name, hidden }}
                  />
                )}
              </button>
            )}
          </div>
        </div>
      </div>
    </article>
  );
}

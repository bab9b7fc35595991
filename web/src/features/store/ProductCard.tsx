import toast from 'react-hot-toast';
import { PRODUCT_CATEGORY_INFO, type Product } from '@beacon/contracts';
import { formatPrice } from './format';
import { useRecordProductViewMutation } from './store.api';
import { Heart, Shield } from 'lucide-react';
import { CategoryIcon, INFO_TOAST_ICON, PRODUCT_CATEGORY_ICONS } from '@/common/icons';

export const STORE_TOASTS = {
  details: 'Product details page coming soon!',
  wishlist: 'Wishlist feature coming soon!',
  cart: 'Shopping cart feature coming soon!',
  loadFailed: 'Failed to load products',
} as const;

/** A product in the grid, the list or the Featured band. Texts from the API are rendered as text. */
export function ProductCard({ product, layout }: { product: Product; layout: 'grid' | 'list' }) {
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
          <div className="product-image-missing" role="img" aria-label={`No image for ${product.name}`}>
            <CategoryIcon icon={category ? PRODUCT_CATEGORY_ICONS[category.value] : Shield} size={48} />
          </div>
        )}
        <div className="product-flags">
          {product.featured && <span className="badge badge-featured">Featured</span>}
          {!product.inStock && <span className="badge badge-out">Out of Stock</span>}
        </div>
        <button
          type="button"
          className="btn btn-ghost product-wishlist"
          aria-label={`Add ${product.name} to wishlist`}
          onClick={() => toast(STORE_TOASTS.wishlist, { icon: INFO_TOAST_ICON })}
        >
          <Heart aria-hidden="true" focusable="false" size={18} />
        </button>
      </div>
      <div className="product-body">
        {category && (
          <span className="product-category" data-category={product.category}>
            <CategoryIcon icon={PRODUCT_CATEGORY_ICONS[category.value]} /> {category.label}
          </span>
        )}
        <h3 id={titleId} className="product-name">
          {product.name}
        </h3>
        <p className="product-description">{product.description}</p>
        <div className="product-footer">
          <span className="product-price">{formatPrice(product.price)}</span>
          <div className="product-actions">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => {
                viewed();
                toast(STORE_TOASTS.details, { icon: INFO_TOAST_ICON });
              }}
            >
              Details<span className="visually-hidden"> for {product.name}</span>
            </button>
            {product.isAffiliate && product.affiliateUrl ? (
              <a className="btn btn-primary btn-sm" href={product.affiliateUrl} target="_blank" rel="noopener noreferrer" onClick={viewed}>
                Buy Now<span className="visually-hidden"> {product.name} (opens in a new tab)</span> <span aria-hidden="true">↗</span>
              </a>
            ) : (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                disabled={!product.inStock}
                onClick={() => toast(STORE_TOASTS.cart, { icon: INFO_TOAST_ICON })}
              >
                {product.inStock ? 'Add to Cart' : 'Out of Stock'}
                <span className="visually-hidden"> {product.name}</span>
              </button>
            )}
          </div>
        </div>
      </div>
    </article>
  );
}

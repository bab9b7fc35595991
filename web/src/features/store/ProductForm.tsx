import { useId, useState, type FormEvent } from 'react';
import { PRODUCT_CATEGORIES, PRODUCT_CATEGORY_INFO, PRODUCT_LIMITS, type Product, type ProductCategory, type ProductInput } from '@beacon/contracts';

type Errors = Partial<Record<'name' | 'description' | 'price' | 'category' | 'images' | 'affiliateUrl', string>>;

interface Draft {
  name: string;
  description: string;
  price: string;
  category: ProductCategory | '';
  images: string;
  featured: boolean;
  inStock: boolean;
  isAffiliate: boolean;
  affiliateUrl: string;
}

const IMAGE_URL = /^(https:\/\/[^\s"'<>]+|\/[A-Za-z0-9._~\-/]+)$/;

function toDraft(p?: Product): Draft {
  return {
    name: p?.name ?? '',
    description: p?.description ?? '',
    price: p ? p.price.toFixed(2) : '',
    category: p?.category ?? '',
    images: p?.images.join('\n') ?? '',
    featured: p?.featured ?? false,
    inStock: p?.inStock ?? true,
    isAffiliate: p?.isAffiliate ?? false,
    affiliateUrl: p?.affiliateUrl ?? '',
  };
}

/** The same rules as the API (which checks again); the messages match its messages. */
export function validateProduct(d: Draft): { errors: Errors; input?: ProductInput } {
  const errors: Errors = {};
  const name = d.name.trim();
  if (!name) errors.name = 'Name is required';
  else if (name.length > PRODUCT_LIMITS.nameMax) errors.name = `Name must be at most ${PRODUCT_LIMITS.nameMax} characters`;
  if (d.description.trim().length > PRODUCT_LIMITS.descriptionMax)
    errors.description = `Description must be at most ${PRODUCT_LIMITS.descriptionMax} characters`;
  const price = Number(d.price);
  if (d.price.trim() === '' || !Number.isFinite(price) || !/^\d+(\.\d{1,2})?$/.test(d.price.trim()))
    errors.price = 'Price must be an amount in dollars with at most 2 decimals';
  else if (price > PRODUCT_LIMITS.priceMax) errors.price = `Price must be at most ${PRODUCT_LIMITS.priceMax}`;
  if (!d.category) errors.category = 'Please choose a category';
  const images = d.images
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (images.length > PRODUCT_LIMITS.imagesMax) errors.images = `A product can have at most ${PRODUCT_LIMITS.imagesMax} images`;
  else if (images.some((u) => !IMAGE_URL.test(u))) errors.images = 'Each image must be an https:// URL or a path on this site';
  const affiliateUrl = d.affiliateUrl.trim();
  if (affiliateUrl && !/^https:\/\/[^\s]+\.[^\s]+/.test(affiliateUrl)) errors.affiliateUrl = 'Affiliate URL must be an https:// URL';
  else if (d.isAffiliate && !affiliateUrl) errors.affiliateUrl = 'An affiliate product needs an https:// affiliate URL';
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    input: {
      name,
      description: d.description.trim(),
      price,
      category: d.category as ProductCategory,
      images,
      featured: d.featured,
      inStock: d.inStock,
      isAffiliate: d.isAffiliate,
      affiliateUrl: affiliateUrl || null,
    },
  };
}

/** Create or edit a product (admin). */
export function ProductForm({
  product,
  busy,
  onSubmit,
  onCancel,
}: {
  product?: Product;
  busy: boolean;
  onSubmit: (input: ProductInput) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(product));
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = validateProduct(draft);
    setErrors(result.errors);
    if (result.input) onSubmit(result.input);
  }

  const field = (key: keyof Errors) => ({
    id: `${id}-${key}`,
    'aria-invalid': Boolean(errors[key]),
    'aria-describedby': errors[key] ? `${id}-${key}-error` : undefined,
  });
  const error = (key: keyof Errors) =>
    errors[key] && (
      <p id={`${id}-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    );

  return (
    <form onSubmit={submit} noValidate aria-label={product ? `Edit ${product.name}` : 'New product'}>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input {...field('name')} value={draft.name} maxLength={PRODUCT_LIMITS.nameMax} onChange={(e) => set('name', e.target.value)} />
        {error('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          {...field('description')}
          rows={3}
          value={draft.description}
          maxLength={PRODUCT_LIMITS.descriptionMax}
          onChange={(e) => set('description', e.target.value)}
        />
        {error('description')}
      </div>
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${id}-price`}>Price (USD)</label>
          <input {...field('price')} inputMode="decimal" value={draft.price} onChange={(e) => set('price', e.target.value)} />
          {error('price')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-category`}>Category</label>
          <select {...field('category')} value={draft.category} onChange={(e) => set('category', e.target.value as ProductCategory | '')}>
            <option value="">Choose a category</option>
            {PRODUCT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {PRODUCT_CATEGORY_INFO[c].label}
              </option>
            ))}
          </select>
          {error('category')}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-images`}>Image URLs (one per line, the first is shown)</label>
        <textarea {...field('images')} rows={2} value={draft.images} onChange={(e) => set('images', e.target.value)} />
        {error('images')}
      </div>
      <div className="row" style={{ marginBottom: '0.9rem' }}>
        <label className="checkbox">
          <input type="checkbox" checked={draft.featured} onChange={(e) => set('featured', e.target.checked)} /> Featured
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={draft.inStock} onChange={(e) => set('inStock', e.target.checked)} /> In stock
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={draft.isAffiliate} onChange={(e) => set('isAffiliate', e.target.checked)} /> Affiliate product
        </label>
      </div>
      <div className="field">
        <label htmlFor={`${id}-affiliateUrl`}>Affiliate URL{draft.isAffiliate ? '' : ' (optional)'}</label>
        <input {...field('affiliateUrl')} type="url" placeholder="https://" value={draft.affiliateUrl} onChange={(e) => set('affiliateUrl', e.target.value)} />
        {error('affiliateUrl')}
      </div>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {product ? 'Save Changes' : 'Create Product'}
        </button>
      </div>
    </form>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { PRODUCT_CATEGORIES, PRODUCT_LIMITS, type Product, type ProductCategory, type ProductInput } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';
import { categoryLabel } from './messages';

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

/** What an affiliate URL must start with; shown as the field's hint (no word to translate). */
const URL_HINT = 'https://';

const ERRORS = defineMessages({
  nameRequired: { id: 'store.form.error.nameRequired', defaultMessage: 'Name is required' },
  nameTooLong: { id: 'store.form.error.nameTooLong', defaultMessage: 'Name must be at most {max, number} characters' },
  descriptionTooLong: { id: 'store.form.error.descriptionTooLong', defaultMessage: 'Description must be at most {max, number} characters' },
  priceFormat: { id: 'store.form.error.priceFormat', defaultMessage: 'Price must be an amount in dollars with at most 2 decimals' },
  priceTooHigh: { id: 'store.form.error.priceTooHigh', defaultMessage: 'Price must be at most {max}' },
  categoryRequired: { id: 'store.form.error.categoryRequired', defaultMessage: 'Please choose a category' },
  tooManyImages: { id: 'store.form.error.tooManyImages', defaultMessage: 'A product can have at most {max, number} images' },
  imageUrl: { id: 'store.form.error.imageUrl', defaultMessage: 'Each image must be an https:// URL or a path on this site' },
  affiliateUrl: { id: 'store.form.error.affiliateUrl', defaultMessage: 'Affiliate URL must be an https:// URL' },
  affiliateUrlMissing: { id: 'store.form.error.affiliateUrlMissing', defaultMessage: 'An affiliate product needs an https:// affiliate URL' },
});

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

/** The same rules as the API (which checks again); the messages match its messages (in English). */
export function validateProduct(d: Draft, intl: IntlShape = currentIntl()): { errors: Errors; input?: ProductInput } {
  const errors: Errors = {};
  const t = intl.formatMessage;
  const name = d.name.trim();
  if (!name) errors.name = t(ERRORS.nameRequired);
  else if (name.length > PRODUCT_LIMITS.nameMax) errors.name = t(ERRORS.nameTooLong, { max: PRODUCT_LIMITS.nameMax });
  if (d.description.trim().length > PRODUCT_LIMITS.descriptionMax) errors.description = t(ERRORS.descriptionTooLong, { max: PRODUCT_LIMITS.descriptionMax });
  const price = Number(d.price);
  if (d.price.trim() === '' || !Number.isFinite(price) || !/^\d+(\.\d{1,2})?$/.test(d.price.trim())) errors.price = t(ERRORS.priceFormat);
  else if (price > PRODUCT_LIMITS.priceMax) errors.price = t(ERRORS.priceTooHigh, { max: PRODUCT_LIMITS.priceMax });
  if (!d.category) errors.category = t(ERRORS.categoryRequired);
  const images = d.images
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (images.length > PRODUCT_LIMITS.imagesMax) errors.images = t(ERRORS.tooManyImages, { max: PRODUCT_LIMITS.imagesMax });
  else if (images.some((u) => !IMAGE_URL.test(u))) errors.images = t(ERRORS.imageUrl);
  const affiliateUrl = d.affiliateUrl.trim();
  if (affiliateUrl && !/^https:\/\/[^\s]+\.[^\s]+/.test(affiliateUrl)) errors.affiliateUrl = t(ERRORS.affiliateUrl);
  else if (d.isAffiliate && !affiliateUrl) errors.affiliateUrl = t(ERRORS.affiliateUrlMissing);
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
  const intl = useIntl();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => toDraft(product));
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = validateProduct(draft, intl);
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
    <form
      onSubmit={submit}
      noValidate
      aria-label={
        product
          ? intl.formatMessage({ id: 'store.form.editLabel', defaultMessage: 'Edit {name}' }, { name: product.name })
          : intl.formatMessage({ id: 'store.form.newLabel', defaultMessage: 'New product' })
      }
    >
      <div className="field">
        <label htmlFor={`${id}-name`}>
          <FormattedMessage id="store.form.name" defaultMessage="Name" />
        </label>
        <input {...field('name')} value={draft.name} maxLength={PRODUCT_LIMITS.nameMax} onChange={(e) => set('name', e.target.value)} />
        {error('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>
          <FormattedMessage id="store.form.description" defaultMessage="Description" />
        </label>
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
          <label htmlFor={`${id}-price`}>
            <FormattedMessage id="store.form.price" defaultMessage="Price (USD)" />
          </label>
          <input {...field('price')} inputMode="decimal" value={draft.price} onChange={(e) => set('price', e.target.value)} />
          {error('price')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-category`}>
            <FormattedMessage id="store.form.category" defaultMessage="Category" />
          </label>
          <select {...field('category')} value={draft.category} onChange={(e) => set('category', e.target.value as ProductCategory | '')}>
            <option value="">{intl.formatMessage({ id: 'store.form.chooseCategory', defaultMessage: 'Choose a category' })}</option>
            {PRODUCT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c, intl)}
              </option>
            ))}
          </select>
          {error('category')}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-images`}>
          <FormattedMessage id="store.form.images" defaultMessage="Image URLs (one per line, the first is shown)" />
        </label>
        <textarea {...field('images')} rows={2} value={draft.images} onChange={(e) => set('images', e.target.value)} />
        {error('images')}
      </div>
      <div className="row" style={{ marginBottom: '0.9rem' }}>
        <label className="checkbox">
          <input type="checkbox" checked={draft.featured} onChange={(e) => set('featured', e.target.checked)} />
          <FormattedMessage id="store.form.featured" defaultMessage="Featured" />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={draft.inStock} onChange={(e) => set('inStock', e.target.checked)} />
          <FormattedMessage id="store.form.inStock" defaultMessage="In stock" />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={draft.isAffiliate} onChange={(e) => set('isAffiliate', e.target.checked)} />
          <FormattedMessage id="store.form.isAffiliate" defaultMessage="Affiliate product" />
        </label>
      </div>
      <div className="field">
        <label htmlFor={`${id}-affiliateUrl`}>
          {draft.isAffiliate ? (
            <FormattedMessage id="store.form.affiliateUrl" defaultMessage="Affiliate URL" />
          ) : (
            <FormattedMessage id="store.form.affiliateUrlOptional" defaultMessage="Affiliate URL (optional)" />
          )}
        </label>
        <input {...field('affiliateUrl')} type="url" placeholder={URL_HINT} value={draft.affiliateUrl} onChange={(e) => set('affiliateUrl', e.target.value)} />
        {error('affiliateUrl')}
      </div>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          <FormattedMessage id="store.form.cancel" defaultMessage="Cancel" />
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {product ? (
            <FormattedMessage id="store.form.save" defaultMessage="Save Changes" />
          ) : (
            <FormattedMessage id="store.form.create" defaultMessage="Create Product" />
          )}
        </button>
      </div>
    </form>
  );
}

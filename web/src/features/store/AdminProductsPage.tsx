import { useEffect, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { PRODUCT_CATEGORY_INFO, type Product, type ProductInput } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatPrice } from './format';
import { ProductForm } from './ProductForm';
import {
  useAdminProductsQuery,
  useCreateProductMutation,
  useDeleteProductMutation,
  useLazyProductAnalyticsQuery,
  useStoreStatsQuery,
  useUpdateProductMutation,
} from './store.api';
import './store.css';
import { X } from 'lucide-react';

const PAGE = 20;

/** A dialog that takes focus, closes on Escape and gives focus back to what opened it. */
function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeRef.current();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus?.();
    };
  }, []);
  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="dialog-title" tabIndex={-1} ref={ref}>
        <div className="row-between">
          <h2 id="dialog-title">{title}</h2>
          <button type="button" className="btn btn-ghost" aria-label="Close" onClick={onClose}>
            <X aria-hidden="true" size={20} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

function Analytics({ product }: { product: Product }) {
  const [load, { data, isFetching, isError }] = useLazyProductAnalyticsQuery();
  useEffect(() => {
    void load(product.id);
  }, [load, product.id]);
  if (isFetching || (!data && !isError)) return <Spinner label="Loading analytics" />;
  if (isError || !data) return <p role="alert">Analytics are not available right now.</p>;
  const figures = [
    ['Total views', data.totalViews],
    ['Unique viewers', data.uniqueViews],
    ['Views this week', data.viewsThisWeek],
    ['Views today', data.viewsToday],
  ] as const;
  return (
    <dl className="analytics-grid">
      {figures.map(([label, value]) => (
        <div key={label} className="card stat-card">
          <dt className="muted small">{label}</dt>
          <dd className="stat-value" style={{ margin: 0 }}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

type Modal = { kind: 'create' } | { kind: 'edit'; product: Product } | { kind: 'delete'; product: Product } | { kind: 'analytics'; product: Product } | null;

/** /admin/products: the catalogue with create, edit, delete and per-product analytics. */
export function AdminProductsPage() {
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [modal, setModal] = useState<Modal>(null);
  const stats = useStoreStatsQuery();
  const list = useAdminProductsQuery({ search: search.trim(), offset, limit: PAGE });
  const [create, creating] = useCreateProductMutation();
  const [update, updating] = useUpdateProductMutation();
  const [remove, removing] = useDeleteProductMutation();
  const close = () => setModal(null);

  async function save(input: ProductInput) {
    try {
      if (modal?.kind === 'edit') {
        await update({ id: modal.product.id, changes: input }).unwrap();
        toast.success('Product updated');
      } else {
        await create(input).unwrap();
        toast.success('Product created');
      }
      close();
    } catch (e) {
      toast.error(errorMessage(e, modal?.kind === 'edit' ? 'Failed to update product' : 'Failed to create product'));
    }
  }

  async function confirmDelete(product: Product) {
    try {
      await remove(product.id).unwrap();
      toast.success('Product deleted');
      close();
    } catch (e) {
      toast.error(errorMessage(e, 'Failed to delete product'));
    }
  }

  const total = list.data?.total ?? 0;
  const statCards = [
    ['Total Products', stats.data?.totalProducts],
    ['In Stock', stats.data?.inStockProducts],
    ['Featured', stats.data?.featuredProducts],
    ['Categories', stats.data?.categories],
  ] as const;

  return (
    <section className="page admin-products" aria-labelledby="products-title">
      <div className="page-header">
        <div>
          <h1 id="products-title">Products</h1>
          <p className="muted">Manage the Safety Store catalogue.</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setModal({ kind: 'create' })}>
          + New Product
        </button>
      </div>

      <div className="grid-4" style={{ marginBottom: '1.25rem' }}>
        {statCards.map(([label, value]) => (
          <div key={label} className="card stat-card">
            <span className="muted small">{label}</span>
            <span className="stat-value">{stats.isError ? 0 : (value ?? '…')}</span>
          </div>
        ))}
      </div>

      <div className="card">
        <div className="field" style={{ maxWidth: 420 }}>
          <label htmlFor="admin-product-search">Search products</label>
          <input
            id="admin-product-search"
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setOffset(0);
            }}
          />
        </div>
        {list.isLoading ? (
          <Spinner label="Loading products" />
        ) : list.isError ? (
          <p role="alert">Failed to load products</p>
        ) : total === 0 ? (
          <div className="empty-state">
            <h3>No products found</h3>
            <p>{search ? 'Try adjusting your search or filters' : 'Products will be available soon'}</p>
          </div>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Products</caption>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Category</th>
                  <th scope="col">Price</th>
                  <th scope="col">Status</th>
                  <th scope="col">Views</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.data!.products.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <div className="row">
                        {p.images[0] ? <img className="product-thumb" src={p.images[0]} alt="" /> : null}
                        <span>{p.name}</span>
                      </div>
                    </td>
                    <td>{PRODUCT_CATEGORY_INFO[p.category]?.label ?? p.category}</td>
                    <td>{formatPrice(p.price)}</td>
                    <td>
                      <div className="row">
                        <span className={`badge ${p.inStock ? 'badge-success' : 'badge-medium'}`}>{p.inStock ? 'In stock' : 'Out of stock'}</span>
                        {p.featured && <span className="badge">Featured</span>}
                        {p.isAffiliate && <span className="badge">Affiliate</span>}
                      </div>
                    </td>
                    <td>{p.viewCount}</td>
                    <td>
                      <div className="row">
                        <button
                          type="button"
                          className="btn btn-outline btn-sm"
                          aria-label={`Analytics for ${p.name}`}
                          onClick={() => setModal({ kind: 'analytics', product: p })}
                        >
                          Analytics
                        </button>
                        <button
                          type="button"
                          className="btn btn-outline btn-sm"
                          aria-label={`Edit ${p.name}`}
                          onClick={() => setModal({ kind: 'edit', product: p })}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          aria-label={`Delete ${p.name}`}
                          onClick={() => setModal({ kind: 'delete', product: p })}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {total > PAGE && (
          <div className="row-between" style={{ marginTop: '1rem' }}>
            <span className="muted small">
              Showing page {Math.floor(offset / PAGE) + 1} of {Math.ceil(total / PAGE)}
            </span>
            <div className="row">
              <button type="button" className="btn btn-outline btn-sm" disabled={offset === 0} onClick={() => setOffset((o) => Math.max(0, o - PAGE))}>
                Previous
              </button>
              <button type="button" className="btn btn-outline btn-sm" disabled={offset + PAGE >= total} onClick={() => setOffset((o) => o + PAGE)}>
                Next
              </button>
            </div>
          </div>
        )}
      </div>

      {(modal?.kind === 'create' || modal?.kind === 'edit') && (
        <Dialog title={modal.kind === 'edit' ? 'Edit Product' : 'New Product'} onClose={close}>
          <ProductForm
            product={modal.kind === 'edit' ? modal.product : undefined}
            busy={creating.isLoading || updating.isLoading}
            onSubmit={save}
            onCancel={close}
          />
        </Dialog>
      )}
      {modal?.kind === 'delete' && (
        <Dialog title="Delete Product" onClose={close}>
          <p>
            Delete <strong>{modal.product.name}</strong>? Its view history is deleted too. This cannot be undone.
          </p>
          <div className="row" style={{ justifyContent: 'flex-end' }}>
            <button type="button" className="btn btn-outline" onClick={close}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" disabled={removing.isLoading} onClick={() => void confirmDelete(modal.product)}>
              Delete Product
            </button>
          </div>
        </Dialog>
      )}
      {modal?.kind === 'analytics' && (
        <Dialog title={`Analytics: ${modal.product.name}`} onClose={close}>
          <Analytics product={modal.product} />
          <p className="muted small">
            This week and today are the last 7 days and the last 24 hours. Repeat views by one person within a short window (30 minutes by default) count once.
          </p>
        </Dialog>
      )}
    </section>
  );
}

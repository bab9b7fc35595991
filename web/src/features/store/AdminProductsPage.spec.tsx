import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Toaster } from 'react-hot-toast';
import type { Product, ProductInput } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { productFixture } from './test-products';
import { makeStore } from '@/app/store';
import { AdminProductsPage } from './AdminProductsPage';

const product = (i: number, extra: Partial<Product> = {}) => productFixture(i, { viewCount: i * 3, ...extra });

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** A small in-memory store service: the list, stats and analytics answer from what the writes left behind. */
function installApi(options: { createError?: { status: number; message: string }; analyticsFail?: boolean } = {}) {
  const products: Product[] = [product(1, { featured: true }), product(2, { inStock: false, category: 'Medical Supplies' })];
  const writes: Sent[] = [];
  let next = 100;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const url = new URL(req.url, 'http://localhost');
    const path = url.pathname;
    if (req.method !== 'GET') {
      const body = req.method === 'DELETE' ? undefined : await req.json();
      writes.push({ method: req.method, path, body });
      if (req.method === 'POST' && path === '/api/store/products') {
        if (options.createError)
          return json({ statusCode: options.createError.status, code: 'validation_failed', message: options.createError.message }, options.createError.status);
        const created = product(next++, { ...(body as ProductInput), viewCount: 0 } as Partial<Product>);
        products.unshift(created);
        return json(created, 201);
      }
      const id = path.split('/').pop()!;
      const at = products.findIndex((p) => p.id === id);
      if (at < 0) return json({ statusCode: 404, code: 'product_not_found', message: 'Product not found' }, 404);
      if (req.method === 'PATCH') {
        products[at] = { ...products[at], ...(body as Partial<Product>) };
        return json(products[at]);
      }
      products.splice(at, 1);
      return new Response(null, { status: 204 });
    }
    if (path === '/api/store/stats') {
      return json({
        totalProducts: products.length,
        inStockProducts: products.filter((p) => p.inStock).length,
        featuredProducts: products.filter((p) => p.featured).length,
        categories: new Set(products.map((p) => p.category)).size,
        byCategory: [],
      });
    }
    if (path.endsWith('/analytics')) {
      if (options.analyticsFail) return json({ statusCode: 503, code: 'unavailable', message: 'down' }, 503);
      // figures that depend on the product asked about: product 2 has 42, 17, 9 and 3
      const n = Number(path.split('/')[4].slice(-2));
      return json({ productId: path.split('/')[4], totalViews: 21 * n, uniqueViews: 8 * n + 1, viewsThisWeek: 4 * n + 1, viewsToday: n + 1 });
    }
    if (path === '/api/store/products') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const matching = products.filter((p) => p.name.toLowerCase().includes(search));
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return json({ products: matching.slice(offset, offset + limit), total: matching.length, limit, offset });
    }
    return json({}, 404);
  }) as unknown as typeof fetch;
  return { writes, products };
}

function renderPage() {
  render(
    <Provider store={makeStore()}>
      <AdminProductsPage />
      <Toaster />
    </Provider>,
  );
}

const rows = () => screen.getAllByRole('row').slice(1);
const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name} `) });
const stat = (label: string) => screen.getByText(label, { selector: '.stat-card > span' }).nextElementSibling;

describe('AdminProductsPage', () => {
  it('lists the catalogue with the store stats', async () => {
    installApi();
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await waitFor(() => expect(stat('Total Products')).toHaveTextContent('2'));
    expect(stat('In Stock')).toHaveTextContent('1');
    expect(stat('Featured')).toHaveTextContent('1');
    expect(stat('Categories')).toHaveTextContent('2');
    const first = rowOf('Product 1');
    expect(within(first).getByText('$11.00')).toBeInTheDocument();
    expect(within(first).getByText('Featured')).toBeInTheDocument();
    expect(within(rowOf('Product 2')).getByText('Out of stock')).toBeInTheDocument();
    expect(within(rowOf('Product 2')).getByText('Medical Supplies')).toBeInTheDocument();
  });

  it('create: shows each validation message and sends nothing until the form is valid', async () => {
    const { writes } = installApi();
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: '+ New Product' }));
    const dialog = screen.getByRole('dialog', { name: 'New Product' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Price must be an amount in dollars with at most 2 decimals')).toBeInTheDocument();
    expect(within(dialog).getByText('Please choose a category')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Reflective Triangle Kit' } });
    fireEvent.change(within(dialog).getByLabelText('Price (USD)'), { target: { value: '19.999' } });
    fireEvent.change(within(dialog).getByLabelText('Category'), { target: { value: 'Traffic Control' } });
    fireEvent.change(within(dialog).getByLabelText(/^Image URLs/), { target: { value: 'http://insecure.example.com/a.png' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Affiliate product' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(within(dialog).queryByText('Name is required')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Price must be an amount in dollars with at most 2 decimals')).toBeInTheDocument();
    expect(within(dialog).getByText('Each image must be an https:// URL or a path on this site')).toBeInTheDocument();
    expect(within(dialog).getByText('An affiliate product needs an https:// affiliate URL')).toBeInTheDocument();
    expect(writes).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Price (USD)'), { target: { value: '19.99' } });
    fireEvent.change(within(dialog).getByLabelText(/^Image URLs/), { target: { value: '/api/store/images/triangle.svg' } });
    fireEvent.change(within(dialog).getByLabelText('Affiliate URL'), { target: { value: 'https://shop.example.com/triangle' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText('Product created')).toBeInTheDocument();
    expect(writes).toEqual([
      {
        method: 'POST',
        path: '/api/store/products',
        body: {
          name: 'Reflective Triangle Kit',
          description: '',
          price: 19.99,
          category: 'Traffic Control',
          images: ['/api/store/images/triangle.svg'],
          featured: false,
          inStock: true,
          isAffiliate: true,
          affiliateUrl: 'https://shop.example.com/triangle',
        },
      },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // the table and the stats reload from the service
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(rowOf('Reflective Triangle Kit')).getByText('$19.99')).toBeInTheDocument();
    await waitFor(() => expect(stat('Total Products')).toHaveTextContent('3'));
  });

  it("create: keeps the form open and shows the service's message when it refuses", async () => {
    installApi({ createError: { status: 400, message: 'A product with this name already exists' } });
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: '+ New Product' }));
    const dialog = screen.getByRole('dialog', { name: 'New Product' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Product 1' } });
    fireEvent.change(within(dialog).getByLabelText('Price (USD)'), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByLabelText('Category'), { target: { value: 'Safety Gear' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText('A product with this name already exists')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New Product' })).toBeInTheDocument();
  });

  it('edit: starts from the product and sends the changes', async () => {
    const { writes } = installApi();
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Product 2' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Product 2');
    expect(within(dialog).getByLabelText('Price (USD)')).toHaveValue('12.00');
    expect(within(dialog).getByLabelText('Category')).toHaveValue('Medical Supplies');
    expect(within(dialog).getByRole('checkbox', { name: 'In stock' })).not.toBeChecked();

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(writes).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'First Aid Kit Pro' } });
    fireEvent.change(within(dialog).getByLabelText('Price (USD)'), { target: { value: '1234.5' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'In stock' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Product updated')).toBeInTheDocument();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      method: 'PATCH',
      path: `/api/store/products/${product(2).id}`,
      body: { name: 'First Aid Kit Pro', price: 1234.5, inStock: true, category: 'Medical Supplies' },
    });
    const row = await screen.findByRole('row', { name: /^First Aid Kit Pro / });
    expect(within(row).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(row).getByText('In stock')).toBeInTheDocument();
  });

  it('delete: asks first, Cancel keeps the product, Delete Product removes it', async () => {
    const { writes } = installApi();
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Product 1' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Product' });
    expect(dialog).toHaveTextContent('Delete Product 1? Its view history is deleted too. This cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(writes).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Product 1' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Product' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Product' }));
    expect(await screen.findByText('Product deleted')).toBeInTheDocument();
    expect(writes).toEqual([{ method: 'DELETE', path: `/api/store/products/${product(1).id}`, body: undefined }]);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByRole('row', { name: /^Product 1 / })).not.toBeInTheDocument();
    await waitFor(() => expect(stat('Featured')).toHaveTextContent('0'));
  });

  it("analytics: shows the product's four figures", async () => {
    installApi();
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Analytics for Product 2' }));
    const dialog = screen.getByRole('dialog', { name: 'Analytics: Product 2' });
    await within(dialog).findByText('Total views');
    const figure = (label: string) => within(dialog).getByText(label).nextElementSibling;
    expect(figure('Total views')).toHaveTextContent('42');
    expect(figure('Unique viewers')).toHaveTextContent('17');
    expect(figure('Views this week')).toHaveTextContent('9');
    expect(figure('Views today')).toHaveTextContent('3');
  });

  it('analytics: says so when they cannot be loaded', async () => {
    installApi({ analyticsFail: true });
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Analytics for Product 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Analytics: Product 1' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Analytics are not available right now.');
  });
});

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Toaster } from 'react-hot-toast';
import type { Product } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { productFixture } from './test-products';
import { makeStore } from '@/app/store';
import { inLanguage } from '@/test/in-language';
import { StorePage } from './StorePage';

const TOTAL = 30;

const product = (i: number, extra: Partial<Product> = {}) => productFixture(i, extra);

/** Answers the store API like the service would, and records each product-list query. */
function installApi(options: { total?: number; featured?: Product[] } = {}) {
  const listCalls: URLSearchParams[] = [];
  const posted: string[] = [];
  const total = options.total ?? TOTAL;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const url = new URL(req.url, 'http://localhost');
    if (req.method === 'POST') {
      posted.push(url.pathname);
      return json({ recorded: true });
    }
    if (url.pathname === '/api/store/products/featured') return json({ products: options.featured ?? [] });
    if (url.pathname === '/api/store/products') {
      listCalls.push(url.searchParams);
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const products = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, k) =>
        product(offset + k, offset + k === 0 ? { isAffiliate: true, affiliateUrl: 'https://shop.example.com/p0' } : {}),
      );
      return json({ products, total, limit, offset });
    }
    return new Response('{}', { status: 404 });
  }) as unknown as typeof fetch;
  return { listCalls, posted };
}

function renderStore(language?: 'es') {
  const store = makeStore();
  const page = (
    <Provider store={store}>
      <StorePage />
      <Toaster />
    </Provider>
  );
  render(language ? inLanguage(language, page) : page);
}

const cards = () => screen.queryAllByRole('article');
const lastCall = (calls: URLSearchParams[]) => Object.fromEntries(calls[calls.length - 1].entries());

describe('StorePage', () => {
  it('starts with the spec defaults: featured sort, in stock only, 12 a page', async () => {
    const { listCalls } = installApi();
    renderStore();
    await waitFor(() => expect(cards()).toHaveLength(12));
    expect(lastCall(listCalls)).toEqual({ sortBy: 'featured', inStockOnly: 'true', limit: '12', offset: '0' });
    expect(screen.getByRole('checkbox', { name: 'In Stock Only' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Featured Only' })).not.toBeChecked();
    expect(screen.getByText('Showing 12 of 30 products')).toBeInTheDocument();
  });

  it('appends pages with Load More and starts again from the first page on any filter change', async () => {
    const { listCalls } = installApi();
    renderStore();
    await waitFor(() => expect(cards()).toHaveLength(12));

    fireEvent.click(screen.getByRole('button', { name: 'Load More Products' }));
    await waitFor(() => expect(cards()).toHaveLength(24));
    expect(lastCall(listCalls).offset).toBe('12');
    expect(screen.getByText('Showing 24 of 30 products')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'price_low' } });
    await waitFor(() => expect(lastCall(listCalls)).toMatchObject({ sortBy: 'price_low', offset: '0' }));
    await waitFor(() => expect(cards()).toHaveLength(12));
    expect(screen.getByText('Showing 12 of 30 products')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Load More Products' }));
    await waitFor(() => expect(cards()).toHaveLength(24));
    fireEvent.click(screen.getByRole('checkbox', { name: 'In Stock Only' }));
    await waitFor(() => expect(cards()).toHaveLength(12));
    expect(lastCall(listCalls)).toEqual({ sortBy: 'price_low', limit: '12', offset: '0' });

    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Medical Supplies' } });
    await waitFor(() => expect(lastCall(listCalls)).toMatchObject({ category: 'Medical Supplies', offset: '0' }));

    fireEvent.change(screen.getByLabelText('Search products'), { target: { value: 'kit' } });
    await waitFor(() => expect(lastCall(listCalls)).toMatchObject({ search: 'kit', category: 'Medical Supplies', offset: '0' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Featured Only' }));
    await waitFor(() => expect(lastCall(listCalls)).toMatchObject({ featuredOnly: 'true', search: 'kit', offset: '0' }));
  });

  it('going back to an earlier filter starts again at its first page, not at the pages seen before', async () => {
    const { listCalls } = installApi();
    renderStore();
    await waitFor(() => expect(cards()).toHaveLength(12));
    fireEvent.click(screen.getByRole('button', { name: 'Load More Products' }));
    await waitFor(() => expect(cards()).toHaveLength(24));
    expect(screen.getByText('Showing 24 of 30 products')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'newest' } });
    await waitFor(() => expect(lastCall(listCalls)).toMatchObject({ sortBy: 'newest', offset: '0' }));
    await waitFor(() => expect(screen.getByText('Showing 12 of 30 products')).toBeInTheDocument());

    const before = listCalls.length;
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'featured' } });
    await waitFor(() => expect(listCalls.length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByText('Showing 12 of 30 products')).toBeInTheDocument());
    expect(cards()).toHaveLength(12);
    // one request, for the first page only
    expect(listCalls.slice(before).map((q) => Object.fromEntries(q.entries()))).toEqual([
      { sortBy: 'featured', inStockOnly: 'true', limit: '12', offset: '0' },
    ]);
  });

  it('hides Load More once every product is shown', async () => {
    installApi({ total: 20 });
    renderStore();
    await waitFor(() => expect(cards()).toHaveLength(12));
    fireEvent.click(screen.getByRole('button', { name: 'Load More Products' }));
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(screen.queryByRole('button', { name: 'Load More Products' })).not.toBeInTheDocument();
  });

  it('shows the empty state with the right hint', async () => {
    installApi({ total: 0 });
    renderStore();
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(screen.getByText('Products will be available soon')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Search products'), { target: { value: 'zzz' } });
    expect(await screen.findByText('Try adjusting your search or filters')).toBeInTheDocument();
  });

  it('a search with no match shows no featured products above "No products found"', async () => {
    installApi({ total: 0, featured: [1, 2, 3].map((i) => product(100 + i, { featured: true, name: `Featured ${i}` })) });
    renderStore();
    expect(await screen.findByRole('region', { name: /Featured Products/ })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Search products'), { target: { value: 'zzz' } });
    expect(await screen.findByText('Try adjusting your search or filters')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Featured Products/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Featured 1')).not.toBeInTheDocument();
  });

  it('shows the first 3 featured products, opens affiliate links safely and answers unavailable actions with info toasts', async () => {
    const featured = [1, 2, 3, 4, 5, 6].map((i) => product(100 + i, { featured: true, name: `Featured ${i}` }));
    const { posted } = installApi({ featured });
    renderStore();
    const band = await screen.findByRole('region', { name: /Featured Products/ });
    await waitFor(() => expect(within(band).getAllByRole('article')).toHaveLength(3));
    expect(within(band).queryByText('Featured 4')).not.toBeInTheDocument();

    const buy = await screen.findByRole('link', { name: 'Buy Now Product 0 (opens in a new tab)' });
    expect(buy).toHaveAttribute('href', 'https://shop.example.com/p0');
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('img', { name: 'Product 1' })).toHaveAttribute('src', '/api/store/images/p1.svg');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Details for Product 1' })));
    expect(await screen.findByText('Product details page coming soon!')).toBeInTheDocument();
    await waitFor(() => expect(posted).toContain(`/api/store/products/${product(1).id}/views`));
    fireEvent.click(screen.getByRole('button', { name: 'Add Product 1 to wishlist' }));
    expect(await screen.findByText('Wishlist feature coming soon!')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart Product 1' }));
    expect(await screen.findByText('Shopping cart feature coming soon!')).toBeInTheDocument();
  });

  it('switches between grid and list', async () => {
    installApi();
    renderStore();
    await waitFor(() => expect(cards()).toHaveLength(12));
    fireEvent.click(screen.getByRole('button', { name: /List view/ }));
    expect(screen.getByRole('button', { name: /List view/ })).toHaveAttribute('aria-pressed', 'true');
    expect(cards()[0]).toHaveClass('product-list');
    fireEvent.click(screen.getByRole('button', { name: /Filters/ }));
    expect(screen.getByRole('button', { name: /Filters/ })).toHaveAttribute('aria-expanded', 'false');
  });

  it('speaks Spanish to a Spanish reader: filters, categories, product cards and the count', async () => {
    installApi();
    renderStore('es');
    expect(screen.getByRole('heading', { level: 1, name: 'Tienda de seguridad' })).toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(12));
    expect(screen.getByText('Mostrando 12 de 30 productos')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Solo en existencia' })).toBeChecked();
    expect(within(screen.getByLabelText('Categoría')).getByRole('option', { name: 'Suministros médicos' })).toHaveValue('Medical Supplies');
    expect(within(screen.getByLabelText('Ordenar por')).getByRole('option', { name: 'Precio: de menor a mayor' })).toHaveValue('price_low');
    const card = cards()[1];
    expect(within(card).getByText('Equipo de seguridad')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Añadir al carrito Product 1' })).toBeInTheDocument();
    expect(within(card).getByText(/^11,00\s?(US\$|\$)$/)).toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Detalles de Product 1' }));
    expect(await screen.findByText('¡La página de detalles del producto llegará pronto!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cargar más productos' })).toBeInTheDocument();
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { signedIn, signedOut } from '@/features/auth/auth.slice';
import { routes } from './routes';
import { makeStore } from './store';

/** The app at `path` as a signed-out visitor or a signed-in user sees it, in English to start with. */
function renderAt(path: string, who: 'visitor' | 'user') {
  const store = makeStore();
  if (who === 'visitor') store.dispatch(signedOut());
  else store.dispatch(signedIn({ id: 'u1', email: 'pat@example.com', role: 'user' }));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

beforeAll(() => {
  // RTK Query calls made by pages have nowhere to go in jsdom; answer them with an empty failure
  global.fetch = jest.fn(() => Promise.reject(new Error('offline'))) as unknown as typeof fetch;
});
afterEach(() => localStorage.clear());

describe('the language switch in the shell (issue #41)', () => {
  it("is in a signed-out visitor's header, and turns the whole page Spanish at once, its title included", async () => {
    const router = renderAt('/login', 'visitor');
    expect(await screen.findByRole('heading', { name: 'Sign in to Beacon' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sign In · Beacon'));
    const header = screen.getByRole('banner');
    const nav = within(header).getByRole('navigation', { name: 'Main' });
    fireEvent.change(within(header).getByRole('combobox', { name: 'Language' }), { target: { value: 'es' } });

    expect(await screen.findByRole('heading', { name: 'Inicie sesión en Beacon' })).toBeInTheDocument();
    expect(within(header).getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    expect(within(nav).getByRole('link', { name: 'Registrarse' })).toHaveAttribute('href', '/signup');
    expect(within(nav).getByRole('button', { name: 'Abrir menú' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Iniciar sesión · Beacon'));
    // the same page, not a reload
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('beacon.language')).toBe('es');
  });

  it("is in a signed-in user's dashboard sidebar, and turns the shell and the page French", async () => {
    renderAt('/dashboard/settings', 'user');
    expect(await screen.findByText('Settings - Coming Soon')).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Dashboard' });
    fireEvent.change(within(sidebar).getByRole('combobox', { name: 'Language' }), { target: { value: 'fr' } });

    expect(await screen.findByRole('heading', { name: 'Paramètres - Bientôt disponible' })).toBeInTheDocument();
    const frenchSidebar = screen.getByRole('complementary', { name: 'Tableau de bord' });
    expect(within(frenchSidebar).getByRole('link', { name: 'Gestion des alertes' })).toHaveAttribute('href', '/dashboard/alerts');
    expect(within(frenchSidebar).getByRole('button', { name: 'Se déconnecter' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Sections' })).toHaveTextContent('Cartes');
  });
});

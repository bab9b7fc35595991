import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { signedIn, signedOut } from '@/features/auth/auth.slice';
import { routes } from './routes';
import { makeStore } from './store';

function renderAt(path: string, user: 'signedIn' | 'signedOut' | 'admin') {
  const store = makeStore();
  if (user === 'signedOut') store.dispatch(signedOut());
  else store.dispatch(signedIn({ id: 'u1', email: 'pat@example.com', role: user === 'admin' ? 'admin' : 'user' }));
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

describe('route rules', () => {
  it('sends an unknown path to /', async () => {
    const router = renderAt('/definitely/not/here', 'signedOut');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends an unknown path under /dashboard to /dashboard', async () => {
    const router = renderAt('/dashboard/nope', 'signedIn');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('sends a signed-out visitor to /login and remembers the page', async () => {
    const router = renderAt('/dashboard/cameras', 'signedOut');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ from: '/dashboard/cameras' });
  });

  it('sends an unknown path under /admin to /, as the spec does for every unknown path outside /dashboard', async () => {
    const router = renderAt('/admin/nope', 'admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('keeps a non-admin out of /admin', async () => {
    const router = renderAt('/admin/settings', 'signedIn');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('lets an admin into /admin', async () => {
    const router = renderAt('/admin', 'admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('complementary', { name: 'Admin' })).toBeInTheDocument();
  });

  it('lets an admin reach /admin/help-requests, which the admin dashboard links to', async () => {
    const router = renderAt('/admin/help-requests', 'admin');
    expect(await screen.findByRole('heading', { name: 'Help Requests' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/help-requests');
  });

  it('lets an admin reach /admin/contact-groups, titled and headed Contact Groups', async () => {
    const router = renderAt('/admin/contact-groups', 'admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact Groups' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/contact-groups');
    await waitFor(() => expect(document.title).toBe('Contact Groups · Beacon'));
  });

  it("shows 'Settings - Coming Soon' at /dashboard/settings", async () => {
    renderAt('/dashboard/settings', 'signedIn');
    expect(await screen.findByText('Settings - Coming Soon')).toBeInTheDocument();
  });
});

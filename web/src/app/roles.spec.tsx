import { render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { User } from '@supabase/auth-js';
import type { Role } from '@beacon/contracts';
import { selectCanApprove, selectCanPublish, selectIsAdmin, selectIsStaff, selectRole, signedIn, toSignedInUser } from '@/features/auth/auth.slice';
import { routes } from './routes';
import { makeStore } from './store';

/** The staff roles in the console (issue #38): who gets in, what the menu offers, which pages each role reaches. */
function renderAt(path: string, role: Role) {
  const store = makeStore();
  store.dispatch(signedIn({ id: 'u1', email: 'pat@example.com', role }));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router, store };
}

beforeAll(() => {
  // RTK Query calls made by pages have nowhere to go in jsdom; answer them with an empty failure
  global.fetch = jest.fn(() => Promise.reject(new Error('offline'))) as unknown as typeof fetch;
});

describe('the signed-in user role', () => {
  const user = (role: unknown) => ({ id: 'u1', email: 'pat@example.com', app_metadata: { role } }) as unknown as User;

  it.each(['user', 'viewer', 'publisher', 'approver', 'admin'] as const)('keeps %s from app_metadata.role', (role) => {
    expect(toSignedInUser(user(role)).role).toBe(role);
  });

  it('reads an unknown or missing role as a plain user', () => {
    expect(toSignedInUser(user('root')).role).toBe('user');
    expect(toSignedInUser(user(undefined)).role).toBe('user');
  });

  it.each([
    ['user', { staff: false, publish: false, approve: false, admin: false }],
    ['viewer', { staff: true, publish: false, approve: false, admin: false }],
    ['publisher', { staff: true, publish: true, approve: false, admin: false }],
    ['approver', { staff: true, publish: true, approve: true, admin: false }],
    ['admin', { staff: true, publish: true, approve: true, admin: true }],
  ] as const)('gives a %s these rights', (role, rights) => {
    const store = makeStore();
    store.dispatch(signedIn({ id: 'u1', email: 'pat@example.com', role }));
    const state = { auth: store.getState().auth };
    expect(selectRole(state)).toBe(role);
    expect({
      staff: selectIsStaff(state),
      publish: selectCanPublish(state),
      approve: selectCanApprove(state),
      admin: selectIsAdmin(state),
    }).toEqual(rights);
  });
});

describe('the console by role', () => {
  it.each([
    ['user', '/admin', '/dashboard'],
    ['viewer', '/admin/alerts', '/admin/alerts'],
    ['viewer', '/admin/help-requests', '/admin/help-requests'],
    ['viewer', '/admin/contact-groups', '/admin/contact-groups'],
    ['viewer', '/admin/contact-groups/g-1', '/admin/contact-groups/g-1'],
    ['user', '/admin/contact-groups', '/dashboard'],
    ['viewer', '/admin/create-alert', '/admin'],
    ['viewer', '/admin/settings', '/admin'],
    ['publisher', '/admin/create-alert', '/admin/create-alert'],
    ['publisher', '/admin/quick-send', '/admin/quick-send'],
    ['publisher', '/admin/settings', '/admin'],
    ['approver', '/admin/moderation', '/admin'],
    ['admin', '/admin/settings', '/admin/settings'],
    ['admin', '/admin/products', '/admin/products'],
  ] as const)('a %s at %s ends at %s', async (role, path, end) => {
    const { router } = renderAt(path, role);
    await waitFor(() => expect(router.state.location.pathname).toBe(end));
  });

  const menu = async () => {
    const nav = await screen.findByRole('navigation', { name: 'Admin sections' });
    return within(nav)
      .getAllByRole('link')
      .map((l) => l.textContent);
  };

  it("shows a viewer only the console's reading sections, and names the role", async () => {
    renderAt('/admin/alerts', 'viewer');
    expect(await menu()).toEqual(['Dashboard', 'Sent Alerts', 'History', 'Help Requests', 'Contact Groups', 'Back to Dashboard']);
    expect(within(screen.getByRole('complementary', { name: 'Admin' })).getByText('Viewer')).toBeInTheDocument();
  });

  it('adds Create Alert for a publisher, and the administrators’ sections for an admin', async () => {
    renderAt('/admin/alerts', 'publisher');
    expect(await menu()).toEqual(['Dashboard', 'Create Alert', 'Sent Alerts', 'History', 'Help Requests', 'Contact Groups', 'Back to Dashboard']);
  });

  it('shows an admin every section', async () => {
    renderAt('/admin/alerts', 'admin');
    expect(await menu()).toEqual([
      'Dashboard',
      'Create Alert',
      'Sent Alerts',
      'History',
      'Help Requests',
      'Contact Groups',
      'Moderation',
      'Products',
      'Settings',
      'Back to Dashboard',
    ]);
  });

  it.each([
    ['viewer', true],
    ['approver', true],
    ['user', false],
  ] as const)('links a %s from the dashboard to the console: %s', async (role, shown) => {
    renderAt('/dashboard/activity', role);
    const nav = await screen.findByRole('navigation', { name: 'Dashboard sections' });
    expect(within(nav).queryByRole('link', { name: 'Admin' }) !== null).toBe(shown);
  });
});

import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { makeStore } from '@/app/store';
import { signedIn, type SignedInUser } from '@/features/auth/auth.slice';

/** Shows where the router is, so tests can assert navigation. */
function WhereAmI() {
  return <output aria-label="current path">{useLocation().pathname}</output>;
}

export interface ScreenOptions {
  /** Who is signed in. */
  user: SignedInUser;
  /** The route pattern the screen is mounted at. */
  path?: string;
  /** The URL the router starts at: `path` itself, or a concrete URL for a pattern with parameters. */
  route?: string;
}

/** Renders one screen inside a real store (signed in) and a memory router; other paths render an empty page. */
export function renderSignedIn(ui: ReactElement, { user, path = '/', route = path }: ScreenOptions) {
  const store = makeStore();
  store.dispatch(signedIn(user));
  const utils = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
          <Route path="*" element={null} />
        </Routes>
        <WhereAmI />
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...utils };
}

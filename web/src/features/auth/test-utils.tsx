import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Toaster } from 'react-hot-toast';
import { makeStore } from '@/app/store';

/** Shows where the router is, so tests can assert navigation. */
function WhereAmI() {
  return <output aria-label="current path">{useLocation().pathname}</output>;
}

export interface AuthScreenOptions {
  /** Extra routes, e.g. a protected page behind RequireAuth. */
  routes?: ReactElement;
  /** The URL the router starts at, with the state a protected page leaves (`from`). */
  at?: { pathname: string; state?: unknown };
  /** Sets up the auth state before rendering (signed out when left alone after loading). */
  prepare?: (store: ReturnType<typeof makeStore>) => void;
}

/** An auth screen mounted at `path` in a real store and a memory router, with the toaster; other paths are empty. */
export function renderAuthScreen(path: string, ui: ReactElement, { routes, at = { pathname: path }, prepare }: AuthScreenOptions = {}) {
  const store = makeStore();
  prepare?.(store);
  const utils = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path={path} element={ui} />
          {routes}
          <Route path="*" element={null} />
        </Routes>
        <WhereAmI />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
  return { store, ...utils };
}

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An access token with these claims, shaped like the identity service's (the signature is not checked here). */
export function fakeAccessToken(claims: Record<string, unknown>) {
  return `${base64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'k1' }))}.${base64url(JSON.stringify(claims))}.c2ln`;
}

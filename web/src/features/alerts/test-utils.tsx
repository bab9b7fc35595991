import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { makeStore } from '@/app/store';

/** Shows where the router is, so tests can assert navigation. */
function WhereAmI() {
  const location = useLocation();
  return <output aria-label="current path">{location.pathname}</output>;
}

/** Renders one screen at `path` inside a real store and a memory router; other paths render an empty page. */
export function renderScreen(ui: ReactElement, { path = '/', route = path }: { path?: string; route?: string } = {}) {
  const store = makeStore({
    auth: { status: 'signedIn', user: { id: '00000000-0000-4000-8000-0000000000ad', email: 'chief.ops@beacon.local', role: 'admin' }, recovering: false },
  });
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

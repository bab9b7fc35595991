import type { ReactElement } from 'react';
import { renderSignedIn } from '@/test/render-screen';

const ADMIN = { id: '00000000-0000-4000-8000-0000000000ad', email: 'chief.ops@beacon.local', role: 'admin' } as const;

/** Renders one alert screen at `path` (started at `route`), signed in as an admin. */
export function renderScreen(ui: ReactElement, { path = '/', route = path }: { path?: string; route?: string } = {}) {
  return renderSignedIn(ui, { user: ADMIN, path, route });
}

import { lazy, Suspense } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectAuthStatus } from '@/features/auth/auth.slice';

// The layer's code (and the alerts endpoints it uses) loads once someone is signed in, never for a visitor.
const LazyWarningLayer = lazy(async () => ({ default: (await import('./index')).WarningLayer }));
const LazyUnreadBadge = lazy(async () => ({ default: (await import('./index')).UnreadBadge }));

/** The warning layer of a layout: rendered for a signed-in person only (`inline` in the admin console: WarningLayer). */
export function Warnings({ inline = false }: { inline?: boolean }) {
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  return signedIn ? (
    <Suspense fallback={null}>
      <LazyWarningLayer inline={inline} />
    </Suspense>
  ) : null;
}

/** The unread count beside an "Alerts" link: nothing until it is known, nothing for a visitor. */
export function AlertsUnreadBadge() {
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  return signedIn ? (
    <Suspense fallback={null}>
      <LazyUnreadBadge />
    </Suspense>
  ) : null;
}

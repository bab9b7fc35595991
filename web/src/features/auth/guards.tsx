import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { FullPageSpinner } from '@/common/Spinner';
import { selectAuthStatus, selectIsAdmin } from './auth.slice';

/**
 * Signed-in users only; others go to /login and come back to where they were after signing in. A session of a
 * user with two-factor authentication that has not entered its code yet (aal1) counts as signed out here: /login
 * asks for the code and then continues to the page. The services enforce aal2 themselves where it matters
 * (password, email, factors); this rule keeps the screens from treating half a sign-in as a whole one.
 */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner label="Checking your session" />;
  if (status !== 'signedIn') return <Navigate to="/login" replace state={{ from: location.pathname + location.search + location.hash }} />;
  return <Outlet />;
}

/** Admins only (the server checks again on every call). */
export function RequireAdmin() {
  const status = useAppSelector(selectAuthStatus);
  const isAdmin = useAppSelector(selectIsAdmin);
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner label="Checking your session" />;
  if (status !== 'signedIn') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}

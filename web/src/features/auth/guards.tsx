import { useIntl } from 'react-intl';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { FullPageSpinner } from '@/common/Spinner';
import { hasRole, isStaff, type StaffRole } from '@beacon/contracts';
import { selectAuthStatus, selectRole } from './auth.slice';

const CHECKING = { id: 'auth.guard.checking', defaultMessage: 'Checking your session' };

/**
 * Signed-in users only; others go to /login and come back to where they were after signing in. A session of a
 * user with two-factor authentication that has not entered its code yet (aal1) counts as signed out here: /login
 * asks for the code and then continues to the page. The services enforce aal2 themselves where it matters
 * (password, email, factors); this rule keeps the screens from treating half a sign-in as a whole one.
 */
export function RequireAuth() {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner label={intl.formatMessage(CHECKING)} />;
  if (status !== 'signedIn') return <Navigate to="/login" replace state={{ from: location.pathname + location.search + location.hash }} />;
  return <Outlet />;
}

/**
 * The staff roles' area (issue #38): /admin admits every staff role, read-only for a viewer; a page that needs more
 * (a publisher's Create Alert, an administrator's Settings) wraps itself in a stricter RequireRole. The server checks
 * again on every call.
 */
export function RequireRole({ min }: { min: StaffRole }) {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  const role = useAppSelector(selectRole);
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner label={intl.formatMessage(CHECKING)} />;
  if (status !== 'signedIn') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  // staff without the role go back to the console's start; anyone else to their dashboard
  if (!hasRole(role, min)) return <Navigate to={isStaff(role) ? '/admin' : '/dashboard'} replace />;
  return <Outlet />;
}

/** Any staff role: the admin console. */
export const RequireStaff = () => <RequireRole min="viewer" />;

/** Administrators only: settings, moderation, the store. */
export const RequireAdmin = () => <RequireRole min="admin" />;

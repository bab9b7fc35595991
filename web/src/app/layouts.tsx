import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Menu } from 'lucide-react';
import { useAppSelector } from '@/app/hooks';
import { useAppConfig } from '@/app/config';
import { hasRole, isStaff, ROLE_LABELS, type StaffRole } from '@beacon/contracts';
import { displayName, selectUser } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';
import { BottomBar, Header } from './Header';
import { useGetMyPointsQuery } from '@/common/points.api';
import { Spinner } from '@/common/Spinner';
import { AlertsUnreadBadge, Warnings } from '@/features/warnings/lazy';

/** Where a route's page appears; a page whose code is still loading shows a spinner inside the layout. */
export function PageOutlet() {
  return (
    <Suspense
      fallback={
        <div className="page-loading">
          <Spinner label="Loading page" />
        </div>
      }
    >
      <Outlet />
    </Suspense>
  );
}

export function PublicLayout() {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Warnings />
      <Header />
      <div id="main" className="public-main">
        <PageOutlet />
      </div>
      <BottomBar />
    </>
  );
}

const DASHBOARD_MENU = [
  ['/dashboard', 'Dashboard'],
  ['/dashboard/alerts', 'Alert Management'],
  ['/dashboard/maps', 'Maps'],
  ['/dashboard/cameras', 'Cameras'],
  ['/dashboard/report-incident', 'Report Incident'],
  ['/dashboard/community', 'Community'],
  ['/dashboard/store', 'Store'],
  ['/alerts', 'My Alerts'],
  ['/profile', 'Profile'],
  ['/premium', 'Premium'],
  ['/faq', 'FAQ'],
] as const;

function LevelBadge() {
  const { data } = useGetMyPointsQuery();
  const points = data?.points ?? 0;
  // the API's progress is already a percentage (0-100)
  const progress = Math.round(data?.progress ?? 0);
  return (
    <div className="level-badge">
      <div className="row-between">
        <span className="badge">{data ? `Level ${data.level} · ${data.levelName}` : 'New Member'}</span>
        <span className="muted small">{points} pts</span>
      </div>
      <div className="progress" role="progressbar" aria-label="Points to next level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
        <div className="progress-bar" style={{ width: `${progress}%` }} />
      </div>
    </div>
  );
}

function useSidebar() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  return { open, setOpen };
}

/** The 280 px dashboard sidebar: always visible on large screens, sliding in with an overlay on small ones. */
export function DashboardLayout() {
  const user = useAppSelector(selectUser);
  const { version } = useAppConfig();
  const signOut = useSignOut('/');
  const { open, setOpen } = useSidebar();
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Warnings />
      <button type="button" className="btn btn-ghost sidebar-toggle" aria-label="Open menu" aria-expanded={open} onClick={() => setOpen(true)}>
        <Menu aria-hidden="true" size={20} /> Menu
      </button>
      {open && <div className="sidebar-overlay" onClick={() => setOpen(false)} aria-hidden="true" />}
      <aside className={`sidebar ${open ? 'open' : ''}`} aria-label="Dashboard">
        <NavLink to="/" className="brand">
          <img src="/icon.svg" alt="" width="28" height="28" /> Beacon
        </NavLink>
        <div className="sidebar-user">
          <strong>{displayName(user?.email)}</strong>
          <span className="muted small">{user?.email}</span>
          <LevelBadge />
        </div>
        <nav aria-label="Dashboard sections">
          {DASHBOARD_MENU.map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/dashboard'}>
              {label}
              {to === '/alerts' && <AlertsUnreadBadge />}
            </NavLink>
          ))}
          {isStaff(user?.role) && <NavLink to="/admin">Admin</NavLink>}
        </nav>
        <div className="sidebar-footer">
          <button type="button" className="btn btn-outline btn-block" onClick={signOut}>
            Sign Out
          </button>
          <span className="muted small">v{version}</span>
        </div>
      </aside>
      <main id="main" className="shell-main">
        <PageOutlet />
      </main>
      <BottomBar />
    </div>
  );
}

// The console's badges load with the console's own code, never with the public pages' (see routes.tsx).
const PendingReportsBadge = lazy(async () => ({ default: (await import('@/features/moderation')).PendingReportsBadge }));
const OpenHelpRequestsBadge = lazy(async () => ({ default: (await import('@/features/alerts-admin')).OpenHelpRequestsBadge }));

/** The console's sections and the least role each needs (issue #38; routes.tsx guards the same). */
const ADMIN_MENU: readonly (readonly [string, string, StaffRole])[] = [
  ['/admin', 'Dashboard', 'viewer'],
  ['/admin/create-alert', 'Create Alert', 'publisher'],
  ['/admin/alerts', 'Sent Alerts', 'viewer'],
  ['/admin/history', 'History', 'viewer'],
  ['/admin/help-requests', 'Help Requests', 'viewer'],
  ['/admin/moderation', 'Moderation', 'admin'],
  ['/admin/products', 'Products', 'admin'],
  ['/admin/settings', 'Settings', 'admin'],
];

export function AdminLayout() {
  const user = useAppSelector(selectUser);
  const signOut = useSignOut('/');
  const { open, setOpen } = useSidebar();
  return (
    <div className="shell admin-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <button type="button" className="btn btn-ghost sidebar-toggle" aria-label="Open menu" aria-expanded={open} onClick={() => setOpen(true)}>
        <Menu aria-hidden="true" size={20} /> Menu
      </button>
      {open && <div className="sidebar-overlay" onClick={() => setOpen(false)} aria-hidden="true" />}
      <aside className={`sidebar ${open ? 'open' : ''}`} aria-label="Admin">
        <NavLink to="/admin" className="brand">
          <img src="/icon.svg" alt="" width="28" height="28" /> Beacon Admin
        </NavLink>
        <div className="sidebar-user">
          <strong>{displayName(user?.email)}</strong>
          <span className="muted small">{user?.email}</span>
          {user && <span className="muted small">{ROLE_LABELS[user.role]}</span>}
        </div>
        <nav aria-label="Admin sections">
          {ADMIN_MENU.filter(([, , min]) => hasRole(user?.role, min)).map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/admin'}>
              {label}
              <Suspense fallback={null}>
                {to === '/admin/moderation' && <PendingReportsBadge />}
                {to === '/admin/help-requests' && <OpenHelpRequestsBadge />}
              </Suspense>
            </NavLink>
          ))}
          <NavLink to="/dashboard">Back to Dashboard</NavLink>
        </nav>
        <div className="sidebar-footer">
          <button type="button" className="btn btn-outline btn-block" onClick={signOut}>
            Sign Out
          </button>
        </div>
      </aside>
      <main id="main" className="shell-main">
        {/* the console's warnings sit above its page, never over it (WarningLayer's inline) */}
        <Warnings inline />
        <PageOutlet />
      </main>
    </div>
  );
}

import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Menu } from 'lucide-react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { useAppSelector } from '@/app/hooks';
import { useAppConfig } from '@/app/config';
import { hasRole, isStaff, type Role, type StaffRole } from '@beacon/contracts';
import { displayName, selectUser } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';
import { levelName } from '@/features/dashboard-home/activity';
import { LanguageSwitch } from '@/features/language';
import { defineMessages } from '@/i18n';
import { BottomBar, Header } from './Header';
import { NAV, SHELL } from './nav';
import { APP_NAME } from './RouteAnnouncer';
import { useGetMyPointsQuery } from '@/common/points.api';
import { Spinner } from '@/common/Spinner';
import { AlertsUnreadBadge, Warnings } from '@/features/warnings/lazy';

/** Where a route's page appears; a page whose code is still loading shows a spinner inside the layout. */
export function PageOutlet() {
  const intl = useIntl();
  return (
    <Suspense
      fallback={
        <div className="page-loading">
          <Spinner label={intl.formatMessage(SHELL.loadingPage)} />
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
        <FormattedMessage {...SHELL.skipToContent} />
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

const DASHBOARD_MENU: readonly (readonly [string, MessageDescriptor])[] = [
  ['/dashboard', NAV.dashboard],
  ['/dashboard/alerts', NAV.alertManagement],
  ['/dashboard/maps', NAV.maps],
  ['/dashboard/cameras', NAV.cameras],
  ['/dashboard/report-incident', NAV.reportIncident],
  ['/dashboard/community', NAV.community],
  ['/dashboard/store', NAV.store],
  ['/alerts', NAV.myAlerts],
  ['/profile', NAV.profile],
  ['/premium', NAV.premium],
  ['/faq', NAV.faq],
];

const LEVEL = defineMessages({
  level: { id: 'app.levelBadge.level', defaultMessage: 'Level {level} · {levelName}' },
  newMember: { id: 'app.levelBadge.newMember', defaultMessage: 'New Member' },
  points: { id: 'app.levelBadge.points', defaultMessage: '{points, plural, one {# pt} other {# pts}}' },
  progress: { id: 'app.levelBadge.progress', defaultMessage: 'Points to next level' },
});

/** The staff roles' names, as the console's sidebar shows the signed-in person's. */
const ROLE_NAMES = defineMessages({
  user: { id: 'app.role.user', defaultMessage: 'User' },
  viewer: { id: 'app.role.viewer', defaultMessage: 'Viewer' },
  publisher: { id: 'app.role.publisher', defaultMessage: 'Publisher' },
  approver: { id: 'app.role.approver', defaultMessage: 'Approver' },
  admin: { id: 'app.role.admin', defaultMessage: 'Administrator' },
}) satisfies Record<Role, MessageDescriptor>;

function LevelBadge() {
  const intl = useIntl();
  const { data } = useGetMyPointsQuery();
  const points = data?.points ?? 0;
  // the API's progress is already a percentage (0-100)
  const progress = Math.round(data?.progress ?? 0);
  return (
    <div className="level-badge">
      <div className="row-between">
        <span className="badge">
          {data ? (
            <FormattedMessage {...LEVEL.level} values={{ level: data.level, levelName: levelName(data.level, data.levelName, intl) }} />
          ) : (
            <FormattedMessage {...LEVEL.newMember} />
          )}
        </span>
        <span className="muted small">
          <FormattedMessage {...LEVEL.points} values={{ points }} />
        </span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label={intl.formatMessage(LEVEL.progress)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
      >
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
  const intl = useIntl();
  const user = useAppSelector(selectUser);
  const { version } = useAppConfig();
  const signOut = useSignOut('/');
  const { open, setOpen } = useSidebar();
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        <FormattedMessage {...SHELL.skipToContent} />
      </a>
      <Warnings />
      <button
        type="button"
        className="btn btn-ghost sidebar-toggle"
        aria-label={intl.formatMessage(SHELL.openMenu)}
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Menu aria-hidden="true" size={20} /> <FormattedMessage {...SHELL.menu} />
      </button>
      {open && <div className="sidebar-overlay" onClick={() => setOpen(false)} aria-hidden="true" />}
      <aside className={`sidebar ${open ? 'open' : ''}`} aria-label={intl.formatMessage(SHELL.dashboard)}>
        <NavLink to="/" className="brand">
          <img src="/icon.svg" alt="" width="28" height="28" /> {APP_NAME}
        </NavLink>
        <div className="sidebar-user">
          <strong>{displayName(user?.email)}</strong>
          <span className="muted small">{user?.email}</span>
          <LevelBadge />
        </div>
        <nav aria-label={intl.formatMessage(SHELL.dashboardSections)}>
          {DASHBOARD_MENU.map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/dashboard'}>
              <FormattedMessage {...label} />
              {to === '/alerts' && <AlertsUnreadBadge />}
            </NavLink>
          ))}
          {isStaff(user?.role) && (
            <NavLink to="/admin">
              <FormattedMessage {...NAV.admin} />
            </NavLink>
          )}
        </nav>
        <div className="sidebar-footer">
          <LanguageSwitch className="language-switch sidebar-language" />
          <button type="button" className="btn btn-outline btn-block" onClick={signOut}>
            <FormattedMessage {...NAV.signOut} />
          </button>
          <span className="muted small">
            <FormattedMessage {...SHELL.version} values={{ version }} />
          </span>
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
const ADMIN_MENU: readonly (readonly [string, MessageDescriptor, StaffRole])[] = [
  ['/admin', NAV.dashboard, 'viewer'],
  ['/admin/create-alert', NAV.createAlert, 'publisher'],
  ['/admin/alerts', NAV.sentAlerts, 'viewer'],
  ['/admin/history', NAV.history, 'viewer'],
  ['/admin/help-requests', NAV.helpRequests, 'viewer'],
  ['/admin/contact-groups', NAV.contactGroups, 'viewer'],
  ['/admin/moderation', NAV.moderation, 'admin'],
  ['/admin/products', NAV.products, 'admin'],
  ['/admin/settings', NAV.settings, 'admin'],
];

export function AdminLayout() {
  const intl = useIntl();
  const user = useAppSelector(selectUser);
  const signOut = useSignOut('/');
  const { open, setOpen } = useSidebar();
  return (
    <div className="shell admin-shell">
      <a href="#main" className="skip-link">
        <FormattedMessage {...SHELL.skipToContent} />
      </a>
      <button
        type="button"
        className="btn btn-ghost sidebar-toggle"
        aria-label={intl.formatMessage(SHELL.openMenu)}
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Menu aria-hidden="true" size={20} /> <FormattedMessage {...SHELL.menu} />
      </button>
      {open && <div className="sidebar-overlay" onClick={() => setOpen(false)} aria-hidden="true" />}
      <aside className={`sidebar ${open ? 'open' : ''}`} aria-label={intl.formatMessage(SHELL.admin)}>
        <NavLink to="/admin" className="brand">
          <img src="/icon.svg" alt="" width="28" height="28" /> <FormattedMessage {...SHELL.adminBrand} values={{ app: APP_NAME }} />
        </NavLink>
        <div className="sidebar-user">
          <strong>{displayName(user?.email)}</strong>
          <span className="muted small">{user?.email}</span>
          {user && (
            <span className="muted small">
              <FormattedMessage {...ROLE_NAMES[user.role]} />
            </span>
          )}
        </div>
        <nav aria-label={intl.formatMessage(SHELL.adminSections)}>
          {ADMIN_MENU.filter(([, , min]) => hasRole(user?.role, min)).map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/admin'}>
              <FormattedMessage {...label} />
              <Suspense fallback={null}>
                {to === '/admin/moderation' && <PendingReportsBadge />}
                {to === '/admin/help-requests' && <OpenHelpRequestsBadge />}
              </Suspense>
            </NavLink>
          ))}
          <NavLink to="/dashboard">
            <FormattedMessage {...NAV.backToDashboard} />
          </NavLink>
        </nav>
        <div className="sidebar-footer">
          <LanguageSwitch className="language-switch sidebar-language" />
          <button type="button" className="btn btn-outline btn-block" onClick={signOut}>
            <FormattedMessage {...NAV.signOut} />
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

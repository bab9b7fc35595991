import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import {
  Bell,
  Camera,
  Ellipsis,
  FilePenLine,
  LayoutDashboard,
  Map as MapIcon,
  Menu,
  Settings,
  ShoppingCart,
  User,
  Users,
  X,
  type LucideIcon,
} from 'lucide-react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { useAppSelector } from '@/app/hooks';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';
import { LanguageSwitch } from '@/features/language';
import { AlertsUnreadBadge } from '@/features/warnings/lazy';
import { NAV, SHELL } from './nav';
import { APP_NAME } from './RouteAnnouncer';

/** The top bar of every page outside the dashboard and admin shells (part 1, Header and navigation). */
export function Header() {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  const signedIn = status === 'signedIn';
  const [open, setOpen] = useState(false);
  const signOut = useSignOut('/');
  const location = useLocation();
  const close = () => setOpen(false);

  return (
    <header className="site-header">
      <nav className="site-nav" aria-label={intl.formatMessage(SHELL.mainNav)}>
        <Link to="/" className="brand" onClick={close}>
          <img src="/icon.svg" alt="" width="28" height="28" /> {APP_NAME}
        </Link>
        <div className="nav-end">
          <div className="nav-links desktop-only">
            {signedIn ? (
              <>
                <NavLink to="/dashboard">
                  <FormattedMessage {...NAV.dashboard} />
                </NavLink>
                <NavLink to="/map">
                  <FormattedMessage {...NAV.safetyMap} />
                </NavLink>
                <NavLink to="/premium">
                  <FormattedMessage {...NAV.premium} />
                </NavLink>
                <NavLink to="/faq">
                  <FormattedMessage {...NAV.faq} />
                </NavLink>
                <NavLink to="/alerts">
                  <FormattedMessage {...NAV.alerts} />
                  <AlertsUnreadBadge />
                </NavLink>
                <NavLink to="/profile">
                  <FormattedMessage {...NAV.profile} />
                </NavLink>
                <button type="button" className="btn btn-outline" onClick={signOut}>
                  <FormattedMessage {...NAV.signOut} />
                </button>
              </>
            ) : status === 'signedOut' || status === 'secondFactor' ? (
              <>
                <NavLink to="/map">
                  <FormattedMessage {...NAV.safetyMap} />
                </NavLink>
                <NavLink to="/faq">
                  <FormattedMessage {...NAV.faq} />
                </NavLink>
                <NavLink to="/login" className="btn btn-ghost">
                  <FormattedMessage {...NAV.signIn} />
                </NavLink>
                <NavLink to="/signup" className="btn btn-primary">
                  <FormattedMessage {...NAV.signUp} />
                </NavLink>
              </>
            ) : null}
          </div>
          {/* everyone's, signed in or not, on every screen size (issue #41) */}
          <LanguageSwitch compact className="language-switch" />
          <button
            type="button"
            className="btn btn-ghost mobile-only"
            aria-expanded={open}
            aria-controls="mobile-menu"
            aria-label={intl.formatMessage(open ? SHELL.closeMenu : SHELL.openMenu)}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
          </button>
        </div>
      </nav>
      <div id="mobile-menu" className={`mobile-menu mobile-only ${open ? 'open' : ''}`} hidden={!open} key={location.pathname}>
        {signedIn ? (
          <>
            <Link to="/dashboard" onClick={close}>
              <FormattedMessage {...NAV.dashboard} />
            </Link>
            <Link to="/alerts" onClick={close}>
              <FormattedMessage {...NAV.alerts} />
              <AlertsUnreadBadge />
            </Link>
            <Link to="/profile" onClick={close}>
              <FormattedMessage {...NAV.profile} />
            </Link>
            <Link to="/map" onClick={close}>
              <FormattedMessage {...NAV.safetyMap} />
            </Link>
            <Link to="/premium" onClick={close}>
              <FormattedMessage {...NAV.premium} />
            </Link>
            <Link to="/faq" onClick={close}>
              <FormattedMessage {...NAV.faq} />
            </Link>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => {
                close();
                void signOut();
              }}
            >
              <FormattedMessage {...NAV.signOut} />
            </button>
          </>
        ) : (
          <>
            <Link to="/login" onClick={close}>
              <FormattedMessage {...NAV.signIn} />
            </Link>
            <Link to="/faq" onClick={close}>
              <FormattedMessage {...NAV.faq} />
            </Link>
            <Link to="/map" onClick={close}>
              <FormattedMessage {...NAV.safetyMap} />
            </Link>
            <Link to="/premium" onClick={close}>
              <FormattedMessage {...NAV.premium} />
            </Link>
            <Link to="/signup" onClick={close}>
              <FormattedMessage {...NAV.signUp} />
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

type BarItem = readonly [to: string, label: MessageDescriptor, icon: LucideIcon];

/** Always in the phone's bottom bar: five items fit a 320 px screen with their labels. */
const BOTTOM_ITEMS: readonly BarItem[] = [
  ['/dashboard', NAV.dashboard, LayoutDashboard],
  ['/dashboard/maps', NAV.maps, MapIcon],
  ['/alerts', NAV.alerts, Bell],
  ['/dashboard/report-incident', NAV.report, FilePenLine],
];

/** Behind "More": the rest of the sections, none of them off-screen. */
const MORE_ITEMS: readonly BarItem[] = [
  ['/dashboard/cameras', NAV.cameras, Camera],
  ['/dashboard/community', NAV.community, Users],
  ['/dashboard/store', NAV.store, ShoppingCart],
  ['/profile', NAV.profile, User],
  ['/dashboard/settings', NAV.settings, Settings],
];

/**
 * Signed-in users on small screens: four sections and "More", which opens the other five above the bar. The current
 * section is highlighted, on "More" when it is one of those (so it is never highlighted out of sight).
 */
export function BottomBar() {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  const { pathname } = useLocation();
  const [moreOpen, setMoreOpen] = useState(false);
  useEffect(() => setMoreOpen(false), [pathname]);
  useEffect(() => {
    if (!moreOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMoreOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [moreOpen]);
  if (status !== 'signedIn') return null;
  const inMore = MORE_ITEMS.some(([to]) => pathname === to || pathname.startsWith(`${to}/`));
  return (
    <nav className="bottom-bar mobile-only" aria-label={intl.formatMessage(SHELL.sections)}>
      <div id="bottom-bar-more" className="bottom-bar-more" hidden={!moreOpen}>
        {MORE_ITEMS.map(([to, label, Icon]) => (
          <NavLink key={to} to={to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
            <Icon aria-hidden="true" size={20} />
            <span>
              <FormattedMessage {...label} />
            </span>
          </NavLink>
        ))}
      </div>
      {BOTTOM_ITEMS.map(([to, label, Icon]) => (
        <NavLink key={to} to={to} end={to === '/dashboard'} className={({ isActive }) => (isActive ? 'active' : undefined)}>
          <Icon aria-hidden="true" size={20} />
          <span>
            <FormattedMessage {...label} />
          </span>
          {to === '/alerts' && <AlertsUnreadBadge />}
        </NavLink>
      ))}
      <button
        type="button"
        className={inMore ? 'active' : undefined}
        aria-expanded={moreOpen}
        aria-controls="bottom-bar-more"
        onClick={() => setMoreOpen((o) => !o)}
      >
        <Ellipsis aria-hidden="true" size={20} />
        <span>
          <FormattedMessage {...NAV.more} />
        </span>
      </button>
    </nav>
  );
}

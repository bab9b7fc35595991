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
import { useAppSelector } from '@/app/hooks';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';
import { AlertsUnreadBadge } from '@/features/warnings/lazy';

/** The top bar of every page outside the dashboard and admin shells (part 1, Header and navigation). */
export function Header() {
  const status = useAppSelector(selectAuthStatus);
  const signedIn = status === 'signedIn';
  const [open, setOpen] = useState(false);
  const signOut = useSignOut('/');
  const location = useLocation();
  const close = () => setOpen(false);

  return (
    <header className="site-header">
      <nav className="site-nav" aria-label="Main">
        <Link to="/" className="brand" onClick={close}>
          <img src="/icon.svg" alt="" width="28" height="28" /> Beacon
        </Link>
        <div className="nav-links desktop-only">
          {signedIn ? (
            <>
              <NavLink to="/dashboard">Dashboard</NavLink>
              <NavLink to="/map">Safety Map</NavLink>
              <NavLink to="/premium">Premium</NavLink>
              <NavLink to="/faq">FAQ</NavLink>
              <NavLink to="/alerts">
                Alerts
                <AlertsUnreadBadge />
              </NavLink>
              <NavLink to="/profile">Profile</NavLink>
              <button type="button" className="btn btn-outline" onClick={signOut}>
                Sign Out
              </button>
            </>
          ) : status === 'signedOut' || status === 'secondFactor' ? (
            <>
              <NavLink to="/map">Safety Map</NavLink>
              <NavLink to="/faq">FAQ</NavLink>
              <NavLink to="/login" className="btn btn-ghost">
                Sign In
              </NavLink>
              <NavLink to="/signup" className="btn btn-primary">
                Sign Up
              </NavLink>
            </>
          ) : null}
        </div>
        <button
          type="button"
          className="btn btn-ghost mobile-only"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
        </button>
      </nav>
      <div id="mobile-menu" className={`mobile-menu mobile-only ${open ? 'open' : ''}`} hidden={!open} key={location.pathname}>
        {signedIn ? (
          <>
            <Link to="/dashboard" onClick={close}>
              Dashboard
            </Link>
            <Link to="/alerts" onClick={close}>
              Alerts
              <AlertsUnreadBadge />
            </Link>
            <Link to="/profile" onClick={close}>
              Profile
            </Link>
            <Link to="/map" onClick={close}>
              Safety Map
            </Link>
            <Link to="/premium" onClick={close}>
              Premium
            </Link>
            <Link to="/faq" onClick={close}>
              FAQ
            </Link>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => {
                close();
                void signOut();
              }}
            >
              Sign Out
            </button>
          </>
        ) : (
          <>
            <Link to="/login" onClick={close}>
              Sign In
            </Link>
            <Link to="/faq" onClick={close}>
              FAQ
            </Link>
            <Link to="/map" onClick={close}>
              Safety Map
            </Link>
            <Link to="/premium" onClick={close}>
              Premium
            </Link>
            <Link to="/signup" onClick={close}>
              Sign Up
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

type BarItem = readonly [to: string, label: string, icon: LucideIcon];

/** Always in the phone's bottom bar: five items fit a 320 px screen with their labels. */
const BOTTOM_ITEMS: readonly BarItem[] = [
  ['/dashboard', 'Dashboard', LayoutDashboard],
  ['/dashboard/maps', 'Maps', MapIcon],
  ['/alerts', 'Alerts', Bell],
  ['/dashboard/report-incident', 'Report', FilePenLine],
];

/** Behind "More": the rest of the sections, none of them off-screen. */
const MORE_ITEMS: readonly BarItem[] = [
  ['/dashboard/cameras', 'Cameras', Camera],
  ['/dashboard/community', 'Community', Users],
  ['/dashboard/store', 'Store', ShoppingCart],
  ['/profile', 'Profile', User],
  ['/dashboard/settings', 'Settings', Settings],
];

/**
 * Signed-in users on small screens: four sections and "More", which opens the other five above the bar. The current
 * section is highlighted, on "More" when it is one of those (so it is never highlighted out of sight).
 */
export function BottomBar() {
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
    <nav className="bottom-bar mobile-only" aria-label="Sections">
      <div id="bottom-bar-more" className="bottom-bar-more" hidden={!moreOpen}>
        {MORE_ITEMS.map(([to, label, Icon]) => (
          <NavLink key={to} to={to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
            <Icon aria-hidden="true" size={20} />
            <span>{label}</span>
          </NavLink>
        ))}
      </div>
      {BOTTOM_ITEMS.map(([to, label, Icon]) => (
        <NavLink key={to} to={to} end={to === '/dashboard'} className={({ isActive }) => (isActive ? 'active' : undefined)}>
          <Icon aria-hidden="true" size={20} />
          <span>{label}</span>
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
        <span>More</span>
      </button>
    </nav>
  );
}

import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { useSignOut } from '@/features/auth/useSignOut';

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
              <NavLink to="/premium">Premium</NavLink>
              <NavLink to="/faq">FAQ</NavLink>
              <NavLink to="/alerts">Alerts</NavLink>
              <NavLink to="/profile">Profile</NavLink>
              <button type="button" className="btn btn-outline" onClick={signOut}>
                Sign Out
              </button>
            </>
          ) : status === 'signedOut' || status === 'secondFactor' ? (
            <>
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
          ☰
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
            </Link>
            <Link to="/profile" onClick={close}>
              Profile
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
            <Link to="/signup" onClick={close}>
              Sign Up
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

const BOTTOM_ITEMS = [
  ['/dashboard', 'Dashboard', '🏠'],
  ['/dashboard/maps', 'Maps', '🗺️'],
  ['/dashboard/cameras', 'Cameras', '📷'],
  ['/alerts', 'Alerts', '🚨'],
  ['/dashboard/report-incident', 'Report', '📝'],
  ['/dashboard/community', 'Community', '👥'],
  ['/dashboard/store', 'Store', '🛒'],
  ['/profile', 'Profile', '👤'],
  ['/dashboard/settings', 'Settings', '⚙️'],
] as const;

/** Signed-in users on small screens: the current item is highlighted. */
export function BottomBar() {
  const status = useAppSelector(selectAuthStatus);
  if (status !== 'signedIn') return null;
  return (
    <nav className="bottom-bar mobile-only" aria-label="Sections">
      {BOTTOM_ITEMS.map(([to, label, icon]) => (
        <NavLink key={to} to={to} end={to === '/dashboard'} className={({ isActive }) => (isActive ? 'active' : undefined)}>
          <span aria-hidden="true">{icon}</span>
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}

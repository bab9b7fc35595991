import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { HomeLocation, UserPoints } from '@beacon/contracts';
import { useAppSelector } from '@/app/hooks';
import { Spinner } from '@/common/Spinner';
import { serverNow } from '@/common/server-clock';
import { useGetMyPointsQuery } from '@/common/points.api';
import { displayName, selectUser } from '@/features/auth/auth.slice';
import { useFirstRunPrompt } from '@/features/alerts';
import { usePreferencesQuery, useUnreadCountQuery } from '@/features/alerts/alerts.api';
import { HOME_LOCATION_PATH, usePlaceName } from '@/features/alerts/LocationOnboarding';
import { homeLabel } from '@/features/alerts/preferences-form';
import { ActivityList } from './ActivityList';
import { useDashboardActiveAlertsQuery, useDashboardAlertCountQuery } from './dashboard.api';
import { activityFailureMessage } from './activity';
import { useActivity } from './useActivity';
import './dashboard.css';
import { BadgeCheck, Bell, CircleHelp, FilePenLine, Handshake, MapPin, Phone, Shield, Siren, Star, Users } from 'lucide-react';

export const RECENT_ACTIVITY_COUNT = 5;
/** Shown in place of the person's place until they have a home location. */
const SET_HOME_LABEL = 'Set your home';

const TODAY = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

interface StatCard {
  name: string;
  value: string;
  change: string;
  direction: 'up' | 'down' | 'neutral';
  icon: ReactNode;
}

export interface Badge {
  name: string;
  description: string;
  icon: ReactNode;
  earned: boolean;
}

/** The four badges, earned from the user's real record. */
export function achievements(input: { reportsTotal: number; anyVerifiedReport: boolean; anyAlertMarkedSafe: boolean; level: number }): Badge[] {
  return [
    { name: 'First Report', description: 'Submit your first incident report', icon: <FilePenLine size={22} />, earned: input.reportsTotal > 0 },
    { name: 'Verified Reporter', description: 'Have a report verified by our team', icon: <BadgeCheck size={22} />, earned: input.anyVerifiedReport },
    { name: 'Alert Responder', description: 'Mark yourself safe after an alert', icon: <Shield size={22} />, earned: input.anyAlertMarkedSafe },
    { name: 'Community Regular', description: 'Reach level 2 in the community', icon: <Handshake size={22} />, earned: input.level >= 2 },
  ];
}

function ProgressPanel({ points, loading, failed }: { points?: Partial<UserPoints>; loading: boolean; failed: boolean }) {
  // No points record yet (or the community cannot answer): the spec's 'New Member' state.
  const isNew = failed || !points || points.hasRecord === false;
  const progress = Math.max(0, Math.min(100, Math.round(points?.progress ?? 0)));
  return (
    <section className="card" aria-labelledby="progress-title">
      <h2 id="progress-title">Your Progress</h2>
      {loading ? (
        <Spinner label="Loading your progress" />
      ) : isNew || !points ? (
        <div className="stack">
          <span className="badge">New Member</span>
          <p className="stat-big">0 points</p>
          <p className="muted">Welcome to Beacon! Earn points by posting in the community, commenting and getting likes.</p>
          <Link to="/dashboard/community" className="btn btn-outline btn-sm">
            Visit the community
          </Link>
        </div>
      ) : (
        <div className="stack">
          <div className="row-between">
            <span className="badge">
              Level {points.level} · {points.levelName}
            </span>
            <span className="stat-big">{points.points} points</span>
          </div>
          <div className="progress" role="progressbar" aria-label="Progress to the next level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
            <div className="progress-bar" style={{ width: `${progress}%` }} />
          </div>
          <p className="muted small">
            {points.nextLevelAt != null
              ? `${Math.max(0, points.nextLevelAt - (points.points ?? 0))} points to next level (${progress}%)`
              : 'Top level reached. Thank you for keeping your community safe!'}
          </p>
        </div>
      )}
    </section>
  );
}

/**
 * The person's own place (issue #40): their home's name, or the name the geocoder gives its point, or its
 * coordinates; without a home, the way to set one.
 */
function HomePlace() {
  const prefs = usePreferencesQuery();
  const home = prefs.data?.home ?? null;
  const named = usePointName(home);
  if (prefs.isLoading) return null;
  if (!home) {
    return (
      <Link to={HOME_LOCATION_PATH} className="icon-text">
        <MapPin aria-hidden="true" size={16} /> {SET_HOME_LABEL}
      </Link>
    );
  }
  return (
    <span className="home-place">
      <MapPin aria-hidden="true" size={16} /> {home.name ? homeLabel(home) : (named ?? homeLabel(home))}
    </span>
  );
}

/** The geocoder's name for a home saved without one (picked on the map, typed as coordinates); null until known. */
function usePointName(home: HomeLocation | null): string | null {
  const nameOf = usePlaceName();
  const [named, setNamed] = useState<{ at: string; name: string | null } | null>(null);
  const lat = home && !home.name ? home.lat : null;
  const lng = home && !home.name ? home.lng : null;
  useEffect(() => {
    if (lat === null || lng === null) return;
    let live = true;
    void nameOf({ lat, lng }).then((name) => live && setNamed({ at: `${lat},${lng}`, name }));
    return () => {
      live = false;
    };
  }, [lat, lng, nameOf]);
  return named && named.at === `${lat},${lng}` ? named.name : null;
}

/** /dashboard: the signed-in user's real figures; anything a service cannot answer shows as zero. */
export function DashboardHomePage() {
  const user = useAppSelector(selectUser);
  const points = useGetMyPointsQuery();
  const active = useDashboardActiveAlertsQuery();
  const received = useDashboardAlertCountQuery({ unread: false });
  // alerts in effect not read yet: an ended alert never counts (the server's rule)
  const unread = useUnreadCountQuery().data?.count ?? 0;
  const activity = useActivity();
  const now = serverNow();
  const firstRun = useFirstRunPrompt();

  const activeCount = active.data?.length ?? 0;
  const reportsTotal = activity.reportsTotal ?? 0;
  const verifiedReports = activity.reports.filter((r) => r.status === 'verified' || r.status === 'resolved').length;
  const pointsData = points.data as Partial<UserPoints> | undefined;

  const stats: StatCard[] = [
    {
      name: 'Active Alerts',
      value: String(activeCount),
      change: unread ? `${unread} unread` : 'All caught up',
      direction: unread ? 'up' : 'neutral',
      icon: <Siren size={22} />,
    },
    { name: 'Alerts Received', value: String(received.data ?? 0), change: `${unread} unread`, direction: 'neutral', icon: <Bell size={22} /> },
    {
      name: 'Reports Submitted',
      value: String(reportsTotal),
      change: activity.allReportsLoaded ? `${verifiedReports} verified` : `${verifiedReports}+ verified`,
      direction: verifiedReports ? 'up' : 'neutral',
      icon: <FilePenLine size={22} />,
    },
    {
      name: 'Community Points',
      value: String(pointsData?.points ?? 0),
      change: pointsData?.hasRecord === false || points.isError ? 'New Member' : `Level ${pointsData?.level ?? 1} · ${pointsData?.levelName ?? 'Newcomer'}`,
      direction: 'neutral',
      icon: <Star size={22} />,
    },
  ];

  const badges = achievements({
    reportsTotal,
    anyVerifiedReport: verifiedReports > 0,
    anyAlertMarkedSafe: activity.alertItems.some((a) => a.read),
    level: pointsData?.hasRecord === false ? 0 : (pointsData?.level ?? 0),
  });
  const recent = activity.items.slice(0, RECENT_ACTIVITY_COUNT);
  const failure = activityFailureMessage(activity.failed);

  return (
    <section className="page dashboard-home" aria-labelledby="welcome-title">
      <header className="welcome card">
        <div>
          <h1 id="welcome-title">
            {firstRun.returning ? 'Welcome back' : 'Welcome'}, {displayName(user?.email)}!
          </h1>
          <p className="muted">
            <time dateTime={now.toISOString().slice(0, 10)}>{TODAY.format(now)}</time>
            <span aria-hidden="true"> · </span>
            <HomePlace />
          </p>
        </div>
        <span className="status-ok" role="status">
          <span className="status-dot" aria-hidden="true" /> All systems operational
        </span>
      </header>
      {/* nothing below the home-location card's place until it is known: the card must not push drawn content down */}
      {!firstRun.settled ? (
        <div className="empty-state">
          <Spinner label="Loading your dashboard" />
        </div>
      ) : (
        <>
          {firstRun.card}

          <div className="grid-4 stats">
            {stats.map((s) => (
              <div key={s.name} className="card stat-card">
                <div className="row-between">
                  <span className="muted small">{s.name}</span>
                  <span aria-hidden="true">{s.icon}</span>
                </div>
                <span className="stat-value">{s.value}</span>
                <span className={`small change-${s.direction}`}>{s.change}</span>
              </div>
            ))}
          </div>

          <div className="dashboard-columns">
            <div className="stack">
              <ProgressPanel points={pointsData} loading={points.isLoading} failed={points.isError} />

              <section className="card" aria-labelledby="achievements-title">
                <h2 id="achievements-title">Recent Achievements</h2>
                <ul className="badges">
                  {badges.map((b) => (
                    <li key={b.name} className={`achievement ${b.earned ? 'earned' : 'locked'}`}>
                      <span className="achievement-icon" aria-hidden="true">
                        {b.icon}
                      </span>
                      <span className="achievement-name">{b.name}</span>
                      <span className="small">{b.earned ? 'Earned' : b.description}</span>
                    </li>
                  ))}
                </ul>
              </section>

              <section className="card" aria-labelledby="quick-title">
                <h2 id="quick-title">Quick Actions</h2>
                <div className="quick-actions">
                  <Link to="/dashboard/report-incident" className="quick-action">
                    <FilePenLine aria-hidden="true" size={18} /> Report Incident
                  </Link>
                  <Link to="/dashboard/community" className="quick-action">
                    <Users aria-hidden="true" size={18} /> Community
                  </Link>
                  <Link to="/faq" className="quick-action">
                    <CircleHelp aria-hidden="true" size={18} /> Help &amp; FAQ
                  </Link>
                  <a href="tel:911" className="quick-action quick-emergency">
                    <Phone aria-hidden="true" size={18} /> Call 911
                  </a>
                </div>
              </section>
            </div>

            <section className="card" aria-labelledby="activity-title">
              <div className="row-between">
                <h2 id="activity-title">Recent Activity</h2>
                <Link to="/dashboard/activity" className="btn btn-outline btn-sm" aria-label="View all activity">
                  View All
                </Link>
              </div>
              {activity.loading ? (
                <Spinner label="Loading your activity" />
              ) : recent.length === 0 ? (
                <div className="empty-state">
                  <p>No activity yet.</p>
                  <p className="small">Alerts you receive, incidents you report and your community posts will appear here.</p>
                </div>
              ) : (
                <ActivityList items={recent} now={now} />
              )}
              {failure && (
                <p className="muted small" role="status">
                  {failure}
                </p>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  );
}

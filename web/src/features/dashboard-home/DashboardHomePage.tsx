import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
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
import { levelBadge } from '@/features/community/labels';
import { currentIntl, defineMessages } from '@/i18n';
import { ActivityList } from './ActivityList';
import { useDashboardActiveAlertsQuery, useDashboardAlertCountQuery } from './dashboard.api';
import { ACTIVITY_TEXTS, activityFailureMessage } from './activity';
import { useActivity } from './useActivity';
import './dashboard.css';
import { BadgeCheck, Bell, CircleHelp, FilePenLine, Handshake, MapPin, Phone, Shield, Siren, Star, Users } from 'lucide-react';

export const RECENT_ACTIVITY_COUNT = 5;
const TEXT = defineMessages({
  /** Shown in place of the person's place until they have a home location. */
  setHome: { id: 'dashboard.home.setHome', defaultMessage: 'Set your home' },
  welcome: { id: 'dashboard.home.welcome', defaultMessage: 'Welcome, {name}!' },
  welcomeBack: { id: 'dashboard.home.welcomeBack', defaultMessage: 'Welcome back, {name}!' },
  loading: { id: 'dashboard.home.loading', defaultMessage: 'Loading your dashboard' },
  points: { id: 'dashboard.progress.points', defaultMessage: '{points, plural, one {# point} other {# points}}' },
  toNextLevel: {
    id: 'dashboard.progress.toNextLevel',
    defaultMessage: '{points, plural, one {# point to next level ({share, number, percent})} other {# points to next level ({share, number, percent})}}',
  },
  loadingProgress: { id: 'dashboard.progress.loading', defaultMessage: 'Loading your progress' },
  progressLabel: { id: 'dashboard.progress.label', defaultMessage: 'Progress to the next level' },
  activeAlerts: { id: 'dashboard.stats.activeAlerts', defaultMessage: 'Active Alerts' },
  alertsReceived: { id: 'dashboard.stats.alertsReceived', defaultMessage: 'Alerts Received' },
  reportsSubmitted: { id: 'dashboard.stats.reportsSubmitted', defaultMessage: 'Reports Submitted' },
  communityPoints: { id: 'dashboard.stats.communityPoints', defaultMessage: 'Community Points' },
  unread: { id: 'dashboard.stats.unread', defaultMessage: '{count, plural, one {# unread} other {# unread}}' },
  caughtUp: { id: 'dashboard.stats.caughtUp', defaultMessage: 'All caught up' },
  verified: { id: 'dashboard.stats.verified', defaultMessage: '{count, plural, one {# verified} other {# verified}}' },
  verifiedAtLeast: { id: 'dashboard.stats.verifiedAtLeast', defaultMessage: '{count, plural, one {#+ verified} other {#+ verified}}' },
  earned: { id: 'dashboard.achievements.earned', defaultMessage: 'Earned' },
  viewAllActivity: { id: 'dashboard.activity.viewAllLabel', defaultMessage: 'View all activity' },
});

const BADGE_TEXT = defineMessages({
  firstReport: { id: 'dashboard.achievements.firstReport.name', defaultMessage: 'First Report' },
  firstReportHow: { id: 'dashboard.achievements.firstReport.how', defaultMessage: 'Submit your first incident report' },
  verifiedReporter: { id: 'dashboard.achievements.verifiedReporter.name', defaultMessage: 'Verified Reporter' },
  verifiedReporterHow: { id: 'dashboard.achievements.verifiedReporter.how', defaultMessage: 'Have a report verified by our team' },
  alertResponder: { id: 'dashboard.achievements.alertResponder.name', defaultMessage: 'Alert Responder' },
  alertResponderHow: { id: 'dashboard.achievements.alertResponder.how', defaultMessage: 'Mark yourself safe after an alert' },
  communityRegular: { id: 'dashboard.achievements.communityRegular.name', defaultMessage: 'Community Regular' },
  communityRegularHow: { id: 'dashboard.achievements.communityRegular.how', defaultMessage: 'Reach level 2 in the community' },
});

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
export function achievements(
  input: { reportsTotal: number; anyVerifiedReport: boolean; anyAlertMarkedSafe: boolean; level: number },
  intl: IntlShape = currentIntl(),
): Badge[] {
  const t = (m: (typeof BADGE_TEXT)[keyof typeof BADGE_TEXT]) => intl.formatMessage(m);
  return [
    { name: t(BADGE_TEXT.firstReport), description: t(BADGE_TEXT.firstReportHow), icon: <FilePenLine size={22} />, earned: input.reportsTotal > 0 },
    { name: t(BADGE_TEXT.verifiedReporter), description: t(BADGE_TEXT.verifiedReporterHow), icon: <BadgeCheck size={22} />, earned: input.anyVerifiedReport },
    { name: t(BADGE_TEXT.alertResponder), description: t(BADGE_TEXT.alertResponderHow), icon: <Shield size={22} />, earned: input.anyAlertMarkedSafe },
    { name: t(BADGE_TEXT.communityRegular), description: t(BADGE_TEXT.communityRegularHow), icon: <Handshake size={22} />, earned: input.level >= 2 },
  ];
}

function ProgressPanel({ points, loading, failed }: { points?: Partial<UserPoints>; loading: boolean; failed: boolean }) {
  const intl = useIntl();
  // No points record yet (or the community cannot answer): the spec's 'New Member' state.
  const isNew = failed || !points || points.hasRecord === false;
  const progress = Math.max(0, Math.min(100, Math.round(points?.progress ?? 0)));
  return (
    <section className="card" aria-labelledby="progress-title">
      <h2 id="progress-title">
        <FormattedMessage id="dashboard.progress.title" defaultMessage="Your Progress" />
      </h2>
      {loading ? (
        <Spinner label={intl.formatMessage(TEXT.loadingProgress)} />
      ) : isNew || !points ? (
        <div className="stack">
          <span className="badge">{levelBadge({ level: 1, hasRecord: false }, intl)}</span>
          <p className="stat-big">{intl.formatMessage(TEXT.points, { points: 0 })}</p>
          <p className="muted">
            <FormattedMessage
              id="dashboard.progress.welcome"
              defaultMessage="Welcome to Beacon! Earn points by posting in the community, commenting and getting likes."
            />
          </p>
          <Link to="/dashboard/community" className="btn btn-outline btn-sm">
            <FormattedMessage id="dashboard.progress.visitCommunity" defaultMessage="Visit the community" />
          </Link>
        </div>
      ) : (
        <div className="stack">
          <div className="row-between">
            <span className="badge">{levelBadge({ level: points.level ?? 1, levelName: points.levelName }, intl)}</span>
            <span className="stat-big">{intl.formatMessage(TEXT.points, { points: points.points ?? 0 })}</span>
          </div>
          <div
            className="progress"
            role="progressbar"
            aria-label={intl.formatMessage(TEXT.progressLabel)}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
          >
            <div className="progress-bar" style={{ width: `${progress}%` }} />
          </div>
          <p className="muted small">
            {points.nextLevelAt != null
              ? intl.formatMessage(TEXT.toNextLevel, { points: Math.max(0, points.nextLevelAt - (points.points ?? 0)), share: progress / 100 })
              : intl.formatMessage({ id: 'dashboard.progress.topLevel', defaultMessage: 'Top level reached. Thank you for keeping your community safe!' })}
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
  const intl = useIntl();
  const prefs = usePreferencesQuery();
  const home = prefs.data?.home ?? null;
  const named = usePointName(home);
  if (prefs.isLoading) return null;
  if (!home) {
    return (
      <Link to={HOME_LOCATION_PATH} className="icon-text">
        <MapPin aria-hidden="true" size={16} /> {intl.formatMessage(TEXT.setHome)}
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
  const intl = useIntl();
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

  const unreadText = intl.formatMessage(TEXT.unread, { count: unread });
  const stats: StatCard[] = [
    {
      name: intl.formatMessage(TEXT.activeAlerts),
      value: intl.formatNumber(activeCount),
      change: unread ? unreadText : intl.formatMessage(TEXT.caughtUp),
      direction: unread ? 'up' : 'neutral',
      icon: <Siren size={22} />,
    },
    {
      name: intl.formatMessage(TEXT.alertsReceived),
      value: intl.formatNumber(received.data ?? 0),
      change: unreadText,
      direction: 'neutral',
      icon: <Bell size={22} />,
    },
    {
      name: intl.formatMessage(TEXT.reportsSubmitted),
      value: intl.formatNumber(reportsTotal),
      change: intl.formatMessage(activity.allReportsLoaded ? TEXT.verified : TEXT.verifiedAtLeast, { count: verifiedReports }),
      direction: verifiedReports ? 'up' : 'neutral',
      icon: <FilePenLine size={22} />,
    },
    {
      name: intl.formatMessage(TEXT.communityPoints),
      value: intl.formatNumber(pointsData?.points ?? 0),
      change: levelBadge({ level: pointsData?.level ?? 1, levelName: pointsData?.levelName, hasRecord: points.isError ? false : pointsData?.hasRecord }, intl),
      direction: 'neutral',
      icon: <Star size={22} />,
    },
  ];

  const badges = achievements(
    {
      reportsTotal,
      anyVerifiedReport: verifiedReports > 0,
      anyAlertMarkedSafe: activity.alertItems.some((a) => a.read),
      level: pointsData?.hasRecord === false ? 0 : (pointsData?.level ?? 0),
    },
    intl,
  );
  const recent = activity.items.slice(0, RECENT_ACTIVITY_COUNT);
  const failure = activityFailureMessage(activity.failed, intl);

  return (
    <section className="page dashboard-home" aria-labelledby="welcome-title">
      <header className="welcome card">
        <div>
          <h1 id="welcome-title">{intl.formatMessage(firstRun.returning ? TEXT.welcomeBack : TEXT.welcome, { name: displayName(user?.email) })}</h1>
          <p className="muted welcome-meta">
            <time dateTime={now.toISOString().slice(0, 10)}>{intl.formatDate(now, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })}</time>
            <HomePlace />
          </p>
        </div>
        <span className="status-ok" role="status">
          <span className="status-dot" aria-hidden="true" />
          <FormattedMessage id="dashboard.home.systemsOperational" defaultMessage="All systems operational" />
        </span>
      </header>
      {/* nothing below the home-location card's place until it is known: the card must not push drawn content down */}
      {!firstRun.settled ? (
        <div className="empty-state">
          <Spinner label={intl.formatMessage(TEXT.loading)} />
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
                <h2 id="achievements-title">
                  <FormattedMessage id="dashboard.achievements.title" defaultMessage="Recent Achievements" />
                </h2>
                <ul className="badges">
                  {badges.map((b) => (
                    <li key={b.name} className={`achievement ${b.earned ? 'earned' : 'locked'}`}>
                      <span className="achievement-icon" aria-hidden="true">
                        {b.icon}
                      </span>
                      <span className="achievement-name">{b.name}</span>
                      <span className="small">{b.earned ? intl.formatMessage(TEXT.earned) : b.description}</span>
                    </li>
                  ))}
                </ul>
              </section>

              <section className="card" aria-labelledby="quick-title">
                <h2 id="quick-title">
                  <FormattedMessage id="dashboard.quick.title" defaultMessage="Quick Actions" />
                </h2>
                <div className="quick-actions">
                  <Link to="/dashboard/report-incident" className="quick-action">
                    <FilePenLine aria-hidden="true" size={18} /> <FormattedMessage id="dashboard.quick.reportIncident" defaultMessage="Report Incident" />
                  </Link>
                  <Link to="/dashboard/community" className="quick-action">
                    <Users aria-hidden="true" size={18} /> <FormattedMessage id="dashboard.quick.community" defaultMessage="Community" />
                  </Link>
                  <Link to="/faq" className="quick-action">
                    <CircleHelp aria-hidden="true" size={18} /> <FormattedMessage id="dashboard.quick.help" defaultMessage="Help & FAQ" />
                  </Link>
                  <a href="tel:911" className="quick-action quick-emergency">
                    <Phone aria-hidden="true" size={18} /> <FormattedMessage id="dashboard.quick.call911" defaultMessage="Call 911" />
                  </a>
                </div>
              </section>
            </div>

            <section className="card" aria-labelledby="activity-title">
              <div className="row-between">
                <h2 id="activity-title">
                  <FormattedMessage id="dashboard.activity.title" defaultMessage="Recent Activity" />
                </h2>
                <Link to="/dashboard/activity" className="btn btn-outline btn-sm" aria-label={intl.formatMessage(TEXT.viewAllActivity)}>
                  <FormattedMessage id="dashboard.activity.viewAll" defaultMessage="View All" />
                </Link>
              </div>
              {activity.loading ? (
                <Spinner label={intl.formatMessage(ACTIVITY_TEXTS.loading)} />
              ) : recent.length === 0 ? (
                <div className="empty-state">
                  <p>{intl.formatMessage(ACTIVITY_TEXTS.empty)}</p>
                  <p className="small">{intl.formatMessage(ACTIVITY_TEXTS.emptyHint)}</p>
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

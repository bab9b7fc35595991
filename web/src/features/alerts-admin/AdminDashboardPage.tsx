import { Link } from 'react-router-dom';
import { ALERT_LIMITS, ALERT_STATUS_LABELS } from '@beacon/contracts';
import { useAppSelector } from '@/app/hooks';
import { displayName, selectUser } from '@/features/auth/auth.slice';
import { Spinner } from '@/common/Spinner';
import { relativeAge } from '@/common/time';
import { useNow } from '@/common/useNow';
import { useAlertStatsQuery, useRecentAlertsQuery, type AlertStats } from './alerts-admin.api';
import { useLiveAdminAlerts } from './live';
import { DeliveryIcon, PriorityBadge, notSentYet } from './ui';
import { useAwaitingApproval } from './AdminAlertsPage';
import { useConsoleRights } from './rights';
import { TestAlertSection } from './TestAlertSection';
import { ChannelHealthPanel } from './ChannelHealthPanel';
import '@/features/alerts/alerts.css';
import { Siren } from 'lucide-react';

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function greeting(now: Date) {
  const h = now.getHours();
  return h < 12 ? 'Good morning' : h < 18 ? 'Good afternoon' : 'Good evening';
}

/**
 * /admin: greeting, the stat cards (with the alerts awaiting approval), quick actions, the 5 newest alerts,
 * deliveries over the last 7 days and the providers' health per channel. A viewer gets no action that sends or writes.
 */
export function AdminDashboardPage() {
  useLiveAdminAlerts();
  const user = useAppSelector(selectUser);
  const now = useNow();
  const stats = useAlertStatsQuery({ tz: browserTimeZone(), days: 7 });
  const recent = useRecentAlertsQuery(ALERT_LIMITS.recentCount);
  const awaiting = useAwaitingApproval();
  const { canPublish, isAdmin } = useConsoleRights();
  // Spec: stats fall back to zeros and recent alerts to an empty list when they cannot be loaded.
  const s = stats.data;

  return (
    <section className="page" aria-labelledby="admin-dashboard-title">
      <header className="page-header">
        <div>
          <h1 id="admin-dashboard-title">
            {greeting(now)}, {displayName(user?.email)}
          </h1>
          <p className="muted">Here is how Beacon's alerts are doing.</p>
        </div>
        {canPublish && (
          <Link to="/admin/quick-send" className="btn btn-danger">
            <Siren aria-hidden="true" focusable="false" size={18} /> Quick Send
          </Link>
        )}
      </header>

      <div className="grid-4" role="list" aria-label="Alert statistics">
        <StatCard label="Total Alerts Sent" value={s?.totalSent ?? 0} loading={stats.isLoading} />
        <StatCard label="Active Alerts" value={s?.activeAlerts ?? 0} loading={stats.isLoading} />
        <StatCard label="Total Deliveries" value={s?.totalDeliveries ?? 0} loading={stats.isLoading} />
        <StatCard label="Success Rate" value={`${s?.successRate ?? 0}%`} loading={stats.isLoading} />
        <StatCard label="Awaiting Approval" value={awaiting} loading={false} />
      </div>
      {awaiting > 0 && (
        <p className="notice" role="status">
          {awaiting === 1 ? '1 alert is' : `${awaiting} alerts are`} awaiting approval.{' '}
          <Link to="/admin/alerts?status=pending_approval">Review {awaiting === 1 ? 'it' : 'them'}</Link>
        </p>
      )}
      {stats.isError && (
        <p className="small muted" role="status">
          Statistics could not be loaded; showing zeros.
        </p>
      )}

      <div className="grid-2" style={{ marginTop: '1rem' }}>
        <section className="card" aria-labelledby="recent-alerts-title">
          <div className="row-between">
            <h2 id="recent-alerts-title">Recent Alerts</h2>
            <Link to="/admin/alerts" className="small">
              All sent alerts
            </Link>
          </div>
          {recent.isLoading ? (
            <Spinner label="Loading recent alerts" />
          ) : !recent.data?.length ? (
            <div className="empty-state">
              <p>No alerts yet</p>
              {canPublish && (
                <Link to="/admin/create-alert" className="btn btn-primary">
                  Create Alert
                </Link>
              )}
            </div>
          ) : (
            <ul className="recent-list">
              {recent.data.map((a) => (
                <li key={a.id}>
                  <div>
                    <Link to={`/admin/alerts/${a.id}`}>
                      <strong>{a.title}</strong>
                    </Link>
                    <div className="row small muted">
                      <PriorityBadge severity={a.severity} />
                      <span>{a.type}</span>
                      <span>{relativeAge(a.createdAt, now)}</span>
                      {notSentYet(a) && <span className="badge">{ALERT_STATUS_LABELS[a.status]}</span>}
                    </div>
                  </div>
                  {!notSentYet(a) && <DeliveryIcon label={a.deliveryLabel} />}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="quick-actions-title">
          <h2 id="quick-actions-title">Quick Actions</h2>
          <nav className="quick-actions" aria-labelledby="quick-actions-title">
            {canPublish && (
              <Link to="/admin/create-alert" className="btn btn-primary">
                Create Alert
              </Link>
            )}
            <Link to="/admin/history" className="btn btn-outline">
              View History
            </Link>
            {isAdmin && (
              <>
                <Link to="/admin/settings" className="btn btn-outline">
                  View Reports
                </Link>
                <Link to="/admin/settings" className="btn btn-outline">
                  Settings
                </Link>
              </>
            )}
            {canPublish && (
              <Link to="/admin/quick-send" className="btn btn-outline">
                Quick Send
              </Link>
            )}
            <Link to="/admin/help-requests" className="btn btn-outline">
              Help Requests
            </Link>
          </nav>
          <h3 style={{ marginTop: '1.25rem' }} id="deliveries-chart-title">
            Deliveries, last 7 days
          </h3>
          <DeliveriesChart perDay={s?.perDay ?? []} />
        </section>
      </div>
      <div style={{ marginTop: '1rem' }}>
        <ChannelHealthPanel />
      </div>
      {/* Admins keep the test group with its schedule in Settings; other staff opt themselves in here. */}
      {!isAdmin && <TestAlertSection />}
    </section>
  );
}

function StatCard({ label, value, loading }: { label: string; value: number | string; loading: boolean }) {
  return (
    <div className="card stat-card" role="listitem" aria-label={`${label}: ${loading ? 'loading' : value}`}>
      <span className="muted small">{label}</span>
      <span className="value">{loading ? <Spinner size="sm" label={`Loading ${label}`} /> : value}</span>
    </div>
  );
}

/** Stacked bars per day: successful, failed, and the rest (pending or cancelled). */
export function DeliveriesChart({ perDay }: { perDay: AlertStats['perDay'] }) {
  const W = 320;
  const H = 140;
  const pad = 18;
  const max = Math.max(1, ...perDay.map((d) => d.total));
  const slot = perDay.length ? (W - pad) / perDay.length : 0;
  const bar = Math.max(4, slot * 0.6);
  // 14 px of head room above the tallest bar for its total.
  const y = (n: number) => ((H - pad - 14) * n) / max;
  const summary = perDay.map((d) => `${shortDay(d.day)}: ${d.total} deliveries, ${d.successful} successful, ${d.failed} failed`).join('; ');
  return (
    <figure className="chart" style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="deliveries-chart-title" aria-describedby="deliveries-chart-desc">
        <desc id="deliveries-chart-desc">{summary || 'No deliveries'}</desc>
        <line x1={pad} x2={W} y1={H - pad} y2={H - pad} stroke="#d1d5db" />
        {perDay.map((d, i) => {
          const x = pad + i * slot + (slot - bar) / 2;
          const other = Math.max(0, d.total - d.successful - d.failed);
          let top = H - pad;
          const seg = (n: number, cls: string) => {
            const h = y(n);
            top -= h;
            return n > 0 ? <rect key={cls} className={cls} x={x} y={top} width={bar} height={h} rx={2} /> : null;
          };
          return (
            <g key={d.day}>
              {seg(d.successful, 'bar-ok')}
              {seg(d.failed, 'bar-failed')}
              {seg(other, 'bar-other')}
              <text x={x + bar / 2} y={H - 4} textAnchor="middle">
                {shortDay(d.day)}
              </text>
              {d.total > 0 && (
                <text x={x + bar / 2} y={H - pad - y(d.total) - 3} textAnchor="middle">
                  {d.total}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        <span>
          <i className="bar-ok-swatch" style={{ background: '#16a34a' }} />
          Successful
        </span>
        <span>
          <i style={{ background: '#dc2626' }} />
          Failed
        </span>
        <span>
          <i style={{ background: '#93c5fd' }} />
          Pending
        </span>
      </figcaption>
    </figure>
  );
}

/** 'YYYY-MM-DD' -> 'Mon' (the date is a calendar day, so no time zone shift). */
function shortDay(day: string) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d).toLocaleDateString('en-US', { weekday: 'short' });
}

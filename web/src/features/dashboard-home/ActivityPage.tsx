import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/common/Spinner';
import { ActivityList } from './ActivityList';
import { activityFailureMessage, type ActivityType } from './activity';
import { useActivity } from './useActivity';
import './dashboard.css';

const FILTERS: { value: ActivityType | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'alert', label: 'Alerts' },
  { value: 'report', label: 'Reports' },
  { value: 'community', label: 'Community' },
  { value: 'achievement', label: 'Achievements' },
];

/** /dashboard/activity: every alert received, report made and community post or comment, newest first (View All on the home page). */
export function ActivityPage() {
  const activity = useActivity();
  const [filter, setFilter] = useState<ActivityType | 'all'>('all');
  const items = filter === 'all' ? activity.items : activity.items.filter((i) => i.type === filter);
  const failure = activityFailureMessage(activity.failed);

  return (
    <section className="page" aria-labelledby="activity-page-title">
      <div className="page-header">
        <div>
          <h1 id="activity-page-title">Your Activity</h1>
          <p className="muted">Alerts you received, incidents you reported and your community posts and comments.</p>
        </div>
        <Link to="/dashboard" className="btn btn-outline">
          Back to Dashboard
        </Link>
      </div>
      <div className="row" role="group" aria-label="Show">
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            className={`chip ${filter === f.value ? 'chip-active' : ''}`}
            aria-pressed={filter === f.value}
            onClick={() => setFilter(f.value)}
          >
            {f.label}
          </button>
        ))}
      </div>
      <div className="card" style={{ marginTop: '1rem' }} aria-busy={activity.loading || activity.loadingMore}>
        {activity.loading ? (
          <Spinner label="Loading your activity" />
        ) : items.length === 0 ? (
          <div className="empty-state">
            <p>No activity yet.</p>
            <p className="small">Alerts you receive, incidents you report and your community posts will appear here.</p>
          </div>
        ) : (
          <ActivityList items={items} />
        )}
        {failure && (
          <p className="muted small" role="status">
            {failure}
          </p>
        )}
        {activity.hasMore && (
          <div className="center" style={{ marginTop: '1rem' }}>
            <button type="button" className="btn btn-outline" disabled={activity.loadingMore} onClick={activity.loadMore}>
              {activity.loadingMore ? 'Loading...' : 'Load More Activity'}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

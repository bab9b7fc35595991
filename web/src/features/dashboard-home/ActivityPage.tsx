import { useState } from 'react';
import { FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { Link } from 'react-router-dom';
import { Spinner } from '@/common/Spinner';
import { defineMessages } from '@/i18n';
import { ActivityList } from './ActivityList';
import { ACTIVITY_TEXTS, activityFailureMessage, type ActivityType } from './activity';
import { useActivity } from './useActivity';
import './dashboard.css';

const FILTER_LABELS = defineMessages({
  all: { id: 'dashboard.activityPage.filter.all', defaultMessage: 'All' },
  alert: { id: 'dashboard.activityPage.filter.alerts', defaultMessage: 'Alerts' },
  report: { id: 'dashboard.activityPage.filter.reports', defaultMessage: 'Reports' },
  community: { id: 'dashboard.activityPage.filter.community', defaultMessage: 'Community' },
  achievement: { id: 'dashboard.activityPage.filter.achievements', defaultMessage: 'Achievements' },
});

const FILTERS: { value: ActivityType | 'all'; label: MessageDescriptor }[] = [
  { value: 'all', label: FILTER_LABELS.all },
  { value: 'alert', label: FILTER_LABELS.alert },
  { value: 'report', label: FILTER_LABELS.report },
  { value: 'community', label: FILTER_LABELS.community },
  { value: 'achievement', label: FILTER_LABELS.achievement },
];

/** /dashboard/activity: every alert received, report made and community post or comment, newest first (View All on the home page). */
export function ActivityPage() {
  const intl = useIntl();
  const activity = useActivity();
  const [filter, setFilter] = useState<ActivityType | 'all'>('all');
  const items = filter === 'all' ? activity.items : activity.items.filter((i) => i.type === filter);
  const failure = activityFailureMessage(activity.failed, intl);

  return (
    <section className="page" aria-labelledby="activity-page-title">
      <div className="page-header">
        <div>
          <h1 id="activity-page-title">
            <FormattedMessage id="dashboard.activityPage.title" defaultMessage="Your Activity" />
          </h1>
          <p className="muted">
            <FormattedMessage
              id="dashboard.activityPage.lead"
              defaultMessage="Alerts you received, incidents you reported and your community posts and comments."
            />
          </p>
        </div>
        <Link to="/dashboard" className="btn btn-outline">
          <FormattedMessage id="dashboard.activityPage.back" defaultMessage="Back to Dashboard" />
        </Link>
      </div>
      <div className="row" role="group" aria-label={intl.formatMessage({ id: 'dashboard.activityPage.filters', defaultMessage: 'Show' })}>
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            className={`chip ${filter === f.value ? 'chip-active' : ''}`}
            aria-pressed={filter === f.value}
            onClick={() => setFilter(f.value)}
          >
            {intl.formatMessage(f.label)}
          </button>
        ))}
      </div>
      <div className="card" style={{ marginTop: '1rem' }} aria-busy={activity.loading || activity.loadingMore}>
        {activity.loading ? (
          <Spinner label={intl.formatMessage(ACTIVITY_TEXTS.loading)} />
        ) : items.length === 0 ? (
          <div className="empty-state">
            <p>{intl.formatMessage(ACTIVITY_TEXTS.empty)}</p>
            <p className="small">{intl.formatMessage(ACTIVITY_TEXTS.emptyHint)}</p>
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
              {activity.loadingMore
                ? intl.formatMessage({ id: 'dashboard.activityPage.loadingMore', defaultMessage: 'Loading...' })
                : intl.formatMessage({ id: 'dashboard.activityPage.loadMore', defaultMessage: 'Load More Activity' })}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

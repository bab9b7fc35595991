import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { relativeAge } from '@/common/time';
import { serverNow } from '@/common/server-clock';
import { severityName } from '@/features/alerts/labels';
import { defineMessages } from '@/i18n';
import type { ActivityItem, ActivityType } from './activity';
import { FilePenLine, MessageCircle, Siren, Trophy, type LucideIcon } from 'lucide-react';

const ICONS: Record<ActivityType, LucideIcon> = { alert: Siren, community: MessageCircle, report: FilePenLine, achievement: Trophy };
/** Said before each row's details to a screen reader, with the pause a comma makes in the reader's language. */
const TYPE_LABELS = defineMessages({
  alert: { id: 'dashboard.activity.type.alert', defaultMessage: 'Alert,' },
  community: { id: 'dashboard.activity.type.community', defaultMessage: 'Community,' },
  report: { id: 'dashboard.activity.type.report', defaultMessage: 'Report,' },
  achievement: { id: 'dashboard.activity.type.achievement', defaultMessage: 'Achievement,' },
});
const DETAILS = defineMessages({
  both: { id: 'dashboard.activity.detailAndPlace', defaultMessage: '{detail} · {place}' },
});

/** A list of activity rows; item texts come from the services and are rendered as text. */
export function ActivityList({ items, now = serverNow() }: { items: ActivityItem[]; now?: Date }) {
  const intl = useIntl();
  return (
    <ul className="activity-list">
      {items.map((item) => {
        const Icon = ICONS[item.type];
        const body = (
          <>
            <span className={`activity-icon sev-${item.severity}`} aria-hidden="true">
              <Icon size={18} />
            </span>
            <span className="activity-text">
              <span className="activity-title">{item.title}</span>
              <span className="muted small">
                <span className="visually-hidden">{intl.formatMessage(TYPE_LABELS[item.type])} </span>
                {item.detail && item.location
                  ? intl.formatMessage(DETAILS.both, { detail: item.detail, place: item.location })
                  : (item.detail ?? item.location)}
              </span>
            </span>
            <span className="activity-meta">
              <span className={`badge badge-${item.severity}`}>{severityName(item.severity, intl)}</span>
              <time className="muted small" dateTime={item.time}>
                {relativeAge(item.time, now, intl)}
              </time>
            </span>
          </>
        );
        return (
          <li key={item.id} className="activity-item">
            {item.href ? (
              <Link to={item.href} className="activity-row">
                {body}
              </Link>
            ) : (
              <div className="activity-row">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

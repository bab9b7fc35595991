import { Link } from 'react-router-dom';
import { relativeAge } from '@/common/time';
import { serverNow } from '@/common/server-clock';
import type { ActivityItem, ActivityType } from './activity';
import { FilePenLine, MessageCircle, Siren, Trophy, type LucideIcon } from 'lucide-react';

const ICONS: Record<ActivityType, LucideIcon> = { alert: Siren, community: MessageCircle, report: FilePenLine, achievement: Trophy };
const TYPE_LABELS: Record<ActivityType, string> = { alert: 'Alert', community: 'Community', report: 'Report', achievement: 'Achievement' };

/** A list of activity rows; item texts come from the services and are rendered as text. */
export function ActivityList({ items, now = serverNow() }: { items: ActivityItem[]; now?: Date }) {
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
                <span className="visually-hidden">{TYPE_LABELS[item.type]}, </span>
                {[item.detail, item.location].filter(Boolean).join(' · ')}
              </span>
            </span>
            <span className="activity-meta">
              <span className={`badge badge-${item.severity}`}>{item.severity}</span>
              <time className="muted small" dateTime={item.time}>
                {relativeAge(item.time, now)}
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

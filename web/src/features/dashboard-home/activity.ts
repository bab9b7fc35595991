import type { IntlShape } from 'react-intl';
import type { Incident, IncidentType, MyCommunityActivity, PostCategory, Severity, UserAlert } from '@beacon/contracts';
import { currentIntl, defineMessages } from '@/i18n';
import { levelName as communityLevelName, postCategoryName } from '@/features/community/labels';
import { incidentTypeName } from '@/features/incidents/labels';

/** Spec: activity types alert, community, report, achievement; activity severity high, medium, low. */
export type ActivityType = 'alert' | 'community' | 'report' | 'achievement';
export type ActivitySeverity = 'high' | 'medium' | 'low';

export interface ActivityItem {
  id: string;
  type: ActivityType;
  title: string;
  detail: string | null;
  /** ISO time; items are ordered by it, newest first. */
  time: string;
  severity: ActivitySeverity;
  location: string | null;
  /** Where the item leads, if anywhere. */
  href: string | null;
}

const ALERT_SEVERITY: Record<Severity, ActivitySeverity> = { critical: 'high', high: 'high', medium: 'medium', low: 'low' };
const REPORT_SEVERITY: Record<IncidentType, ActivitySeverity> = {
  'wrong-way-driver': 'high',
  accident: 'high',
  crime: 'high',
  'traffic-hazard': 'medium',
  other: 'low',
};
const POST_SEVERITY: Record<PostCategory, ActivitySeverity> = {
  'wrong-way-driver': 'high',
  'traffic-tip': 'medium',
  'neighborhood-watch': 'medium',
  other: 'low',
};
const STATUS_TEXT = defineMessages({
  pending: { id: 'dashboard.activity.status.pending', defaultMessage: 'Awaiting review' },
  verified: { id: 'dashboard.activity.status.verified', defaultMessage: 'Verified' },
  rejected: { id: 'dashboard.activity.status.rejected', defaultMessage: 'Not verified' },
  resolved: { id: 'dashboard.activity.status.resolved', defaultMessage: 'Resolved' },
});

const TEXT = defineMessages({
  markedSafe: { id: 'dashboard.activity.markedSafe', defaultMessage: 'Marked safe' },
  alertReceived: { id: 'dashboard.activity.alertReceived', defaultMessage: 'Alert received' },
  reported: { id: 'dashboard.activity.reported', defaultMessage: 'You reported: {type}' },
  posted: { id: 'dashboard.activity.posted', defaultMessage: 'You posted: {title}' },
  commented: { id: 'dashboard.activity.commented', defaultMessage: 'You commented on: {title}' },
  levelReached: { id: 'dashboard.activity.levelReached', defaultMessage: 'You reached level {level}: {levelName}' },
  communityLevel: { id: 'dashboard.activity.communityLevel', defaultMessage: 'Community level' },
});

/**
 * A community level's name in the reader's language (the service names it in English; community/labels.ts has the
 * names); an unknown level as the service named it.
 */
export const levelName = (level: number | undefined, given: string | undefined, intl: IntlShape = currentIntl()): string =>
  communityLevelName(level ?? 1, intl, given);

export function alertActivity(a: UserAlert, intl: IntlShape = currentIntl()): ActivityItem {
  return {
    id: `alert:${a.id}`,
    type: 'alert',
    title: a.title,
    detail: intl.formatMessage(a.read ? TEXT.markedSafe : TEXT.alertReceived),
    time: a.createdAt,
    severity: ALERT_SEVERITY[a.severity] ?? 'medium',
    location: a.locationName,
    href: `/alerts/${a.id}`,
  };
}

export function reportActivity(r: Incident, intl: IntlShape = currentIntl()): ActivityItem {
  const status = Object.hasOwn(STATUS_TEXT, r.status) ? STATUS_TEXT[r.status as keyof typeof STATUS_TEXT] : null;
  return {
    id: `report:${r.id}`,
    type: 'report',
    title: intl.formatMessage(TEXT.reported, { type: incidentTypeName(r.type, intl) }),
    detail: status ? intl.formatMessage(status) : r.status,
    time: r.createdAt,
    severity: REPORT_SEVERITY[r.type] ?? 'medium',
    location: r.locationName,
    href: null,
  };
}

/** My community posts and comments link to the forum; a level reached is an achievement. */
export function communityActivity(c: MyCommunityActivity, intl: IntlShape = currentIntl()): ActivityItem {
  const base = { id: `community:${c.kind}:${c.id}`, time: c.createdAt, location: null, href: '/dashboard/community' };
  switch (c.kind) {
    case 'post':
      return {
        ...base,
        type: 'community',
        title: intl.formatMessage(TEXT.posted, { title: c.title }),
        detail: postCategoryName(c.category, intl),
        severity: POST_SEVERITY[c.category] ?? 'low',
      };
    case 'comment':
      return { ...base, type: 'community', title: intl.formatMessage(TEXT.commented, { title: c.postTitle }), detail: c.excerpt, severity: 'low' };
    case 'level':
      return {
        ...base,
        type: 'achievement',
        title: intl.formatMessage(TEXT.levelReached, { level: c.level, levelName: levelName(c.level, c.levelName, intl) }),
        detail: intl.formatMessage(TEXT.communityLevel),
        severity: 'low',
      };
  }
}

/** The activity list's states, on the home page's Recent Activity and the activity page. */
export const ACTIVITY_TEXTS = defineMessages({
  loading: { id: 'dashboard.activity.loading', defaultMessage: 'Loading your activity' },
  empty: { id: 'dashboard.activity.empty', defaultMessage: 'No activity yet.' },
  emptyHint: { id: 'dashboard.activity.emptyHint', defaultMessage: 'Alerts you receive, incidents you report and your community posts will appear here.' },
});

export type ActivitySourceName = 'alerts' | 'reports' | 'community';
const SOURCES: ActivitySourceName[] = ['alerts', 'reports', 'community'];
/** Each combination of sources that can be down, as a whole sentence (word order and agreement differ by language). */
const DOWN = defineMessages({
  alerts: { id: 'dashboard.activity.down.alerts', defaultMessage: 'Alerts are not available right now.' },
  reports: { id: 'dashboard.activity.down.reports', defaultMessage: 'Reports are not available right now.' },
  community: { id: 'dashboard.activity.down.community', defaultMessage: 'Community activity is not available right now.' },
  'alerts+reports': { id: 'dashboard.activity.down.alertsReports', defaultMessage: 'Alerts and reports are not available right now.' },
  'alerts+community': { id: 'dashboard.activity.down.alertsCommunity', defaultMessage: 'Alerts and community activity are not available right now.' },
  'reports+community': { id: 'dashboard.activity.down.reportsCommunity', defaultMessage: 'Reports and community activity are not available right now.' },
  'alerts+reports+community': { id: 'dashboard.activity.down.all', defaultMessage: 'Your activity is not available right now.' },
});

/** Which sources failed, said one way on the home page and the activity page; null when all answered. */
export function activityFailureMessage(failed: Record<ActivitySourceName, boolean>, intl: IntlShape = currentIntl()): string | null {
  const down = SOURCES.filter((s) => failed[s]);
  if (down.length === 0) return null;
  return intl.formatMessage(DOWN[down.join('+') as keyof typeof DOWN]);
}

export interface ActivitySource {
  items: ActivityItem[];
  /** True while the source has older items that are not loaded yet. */
  hasMore: boolean;
}

/**
 * Merges paged sources newest first. An item is shown only if it is no older than the oldest loaded
 * item of every source that still has more: otherwise a not-yet-loaded item of another source could
 * belong above it, and Load More would insert items in the middle of the list.
 */
export function mergeActivity(sources: ActivitySource[]): { items: ActivityItem[]; hasMore: boolean } {
  const all = sources.flatMap((s) => s.items).sort((a, b) => Date.parse(b.time) - Date.parse(a.time) || a.id.localeCompare(b.id));
  const cutoffs = sources.filter((s) => s.hasMore && s.items.length > 0).map((s) => Math.min(...s.items.map((i) => Date.parse(i.time))));
  const cutoff = cutoffs.length ? Math.max(...cutoffs) : -Infinity;
  return { items: all.filter((i) => Date.parse(i.time) >= cutoff), hasMore: sources.some((s) => s.hasMore) };
}

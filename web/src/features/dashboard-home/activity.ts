import {
  incidentTypeLabel,
  postCategoryLabel,
  type Incident,
  type IncidentType,
  type MyCommunityActivity,
  type PostCategory,
  type Severity,
  type UserAlert,
} from '@beacon/contracts';

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
const STATUS_TEXT: Record<string, string> = { pending: 'Awaiting review', verified: 'Verified', rejected: 'Not verified', resolved: 'Resolved' };

export function alertActivity(a: UserAlert): ActivityItem {
  return {
    id: `alert:${a.id}`,
    type: 'alert',
    title: a.title,
    detail: a.read ? 'Marked safe' : 'Alert received',
    time: a.createdAt,
    severity: ALERT_SEVERITY[a.severity] ?? 'medium',
    location: a.locationName,
    href: `/alerts/${a.id}`,
  };
}

export function reportActivity(r: Incident): ActivityItem {
  return {
    id: `report:${r.id}`,
    type: 'report',
    title: `You reported: ${incidentTypeLabel(r.type)}`,
    detail: STATUS_TEXT[r.status] ?? r.status,
    time: r.createdAt,
    severity: REPORT_SEVERITY[r.type] ?? 'medium',
    location: r.locationName,
    href: null,
  };
}

/** My community posts and comments link to the forum; a level reached is an achievement. */
export function communityActivity(c: MyCommunityActivity): ActivityItem {
  const base = { id: `community:${c.kind}:${c.id}`, time: c.createdAt, location: null, href: '/dashboard/community' };
  switch (c.kind) {
    case 'post':
      return {
        ...base,
        type: 'community',
        title: `You posted: ${c.title}`,
        detail: postCategoryLabel(c.category),
        severity: POST_SEVERITY[c.category] ?? 'low',
      };
    case 'comment':
      return { ...base, type: 'community', title: `You commented on: ${c.postTitle}`, detail: c.excerpt, severity: 'low' };
    case 'level':
      return { ...base, type: 'achievement', title: `You reached level ${c.level}: ${c.levelName}`, detail: 'Community level', severity: 'low' };
  }
}

export type ActivitySourceName = 'alerts' | 'reports' | 'community';
const SOURCES: ActivitySourceName[] = ['alerts', 'reports', 'community'];
const ONE_DOWN: Record<ActivitySourceName, string> = {
  alerts: 'Alerts are not available right now.',
  reports: 'Reports are not available right now.',
  community: 'Community activity is not available right now.',
};
const NAMES: Record<ActivitySourceName, string> = { alerts: 'alerts', reports: 'reports', community: 'community activity' };

/** Which sources failed, said one way on the home page and the activity page; null when all answered. */
export function activityFailureMessage(failed: Record<ActivitySourceName, boolean>): string | null {
  const down = SOURCES.filter((s) => failed[s]);
  if (down.length === 0) return null;
  if (down.length === 1) return ONE_DOWN[down[0]];
  if (down.length === 2) {
    const [first, second] = down.map((s) => NAMES[s]);
    return `${first[0].toUpperCase()}${first.slice(1)} and ${second} are not available right now.`;
  }
  return 'Your activity is not available right now.';
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

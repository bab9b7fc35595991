import {
  AdminAlert,
  allClearMessageIn,
  AllClearTranslations,
  AlertApproval,
  AlertChange,
  AlertReminder,
  AlertStatus,
  AlertSummary,
  AlertTargetGroup,
  AlertUpdateField,
  DeliveryChannel,
  deliveryLabel,
  priorityOfSeverity,
  alertSuccessRate,
  textInLanguage,
  UserAlert,
  type ReaderAlertEvent,
} from '@beacon/contracts';
import { AlertColumns, expiredSql } from '../deliveries/delivery-alerts.repository';
import { toDeliverySummary, toResponses } from '../deliveries/delivery-counts';
import { toContractArea } from './alert-area';

/** An alerts.alerts row as the queries below select it (status already reflects expires_at). */
export interface AlertRow extends AlertColumns {
  expires_at: Date | null;
  status: AlertStatus;
  recipients: number | null;
  dispatched_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
  concerned?: number | null;
  remind_after_minutes?: number | null;
  reminded_at?: Date | null;
  reminders?: number | null;
  version?: number;
  /** AlertRevisionCounter migration: one more at every write that sets updated_at. */
  revision?: number;
  all_clear_at?: Date | null;
  all_clear_message?: string | null;
  /** AllClearTranslations migration: the all-clear's words in other languages. */
  all_clear_translations?: AllClearTranslations | null;
  /** [channel, status, n] triples from alert_delivery_counts. */
  counts?: [DeliveryChannel, string, number][];
  /** RESPONSES_SQL, where it was read. */
  safe?: number;
  need_help?: number;
  help_open?: number;
  read_at?: Date | null;
  /** SendReview migration: when a scheduled send goes out, the author's e-mail, the approval asked for, a break-glass send. */
  send_at?: Date | null;
  created_by_email?: string | null;
  approval?: AlertApproval | null;
  break_glass?: AdminAlert['breakGlass'];
  /** lastChangeSql: the latest version's change, null for an alert that never changed; absent where it was not read. */
  last_change?: LastChangeColumn | null;
  /** TARGET_GROUPS_SQL: the contact groups it targets that still exist, as AdminAlert.groups; absent where it was not read. */
  target_groups?: AlertTargetGroup[] | null;
}

/** lastChangeSql's json, as node-postgres parses it (its time as PostgreSQL prints it). */
interface LastChangeColumn {
  version: number;
  kind: AlertChange['kind'];
  at: string;
  fields: AlertUpdateField[] | null;
  severity_from: AlertSummary['severity'] | null;
}

/**
 * Status as callers see it: an alert in effect (or one still waiting for its time or its approval) past its expiry IS
 * expired, whether or not the sweep ran yet; one that waited never goes out after its expiry.
 */
export const EFFECTIVE_STATUS_SQL = `(CASE WHEN a.status IN ('active', 'scheduled', 'pending_approval') AND ${expiredSql('a')} THEN 'expired' ELSE a.status END)`;

/**
 * What the latest version of alert `alias` changed (issue #40: "Updated 2 min ago: severity raised to Critical", "All
 * clear"): its alert_versions row, read by primary key (alert_id, version), and only when the alert is past version 1
 * (a one-time filter: an alert that never changed, most of them, costs no index probe); the severity before it from
 * the previous version's snapshot, one more key lookup, only when the severity is what changed.
 */
export const lastChangeSql = (alias = 'a') => `(SELECT json_build_object('version', v.version, 'kind', v.kind, 'at', v.created_at, 'fields', v.changed,
    'severity_from', CASE WHEN 'severity' = ANY(v.changed) THEN (
      SELECT b.snapshot ->> 'severity' FROM alerts.alert_versions b WHERE b.alert_id = v.alert_id AND b.version = v.version - 1) END)
  FROM alerts.alert_versions v WHERE ${alias}.version > 1 AND v.alert_id = ${alias}.id AND v.version = ${alias}.version AND v.kind <> 'original') AS last_change`;

/**
 * An alert's columns without its last change, for a statement that reads many rows and pages them after: it adds
 * lastChangeSql to the rows of its page only.
 */
export const ALERT_BASE_COLUMNS_SQL = `a.id, a.title, a.message, a.translations, a.type, a.severity, a.category, a.location_name, a.lat, a.lng, a.radius_km,
  a.area_polygon, a.area_parts, a.area_description, a.group_ids, a.expires_at, a.channels, ${EFFECTIVE_STATUS_SQL} AS status, a.source, a.created_by, a.recipients, a.dispatched_at, a.sent_at,
  a.created_at, a.updated_at, a.concerned, a.remind_after_minutes, a.reminded_at, a.reminders, a.version, a.revision, a.all_clear_at, a.all_clear_message,
  a.all_clear_translations,
  a.send_at, a.created_by_email, a.approval, a.break_glass`;

/**
 * The contact groups alert `a` targets (issue #42) as AdminAlert.groups: in the order chosen, each with its members
 * as the groups' list counts them now; a group deleted since is left out. Read only for an alert with groups.
 */
const TARGET_GROUPS_SQL = `CASE WHEN cardinality(a.group_ids) > 0 THEN (
  SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name,
           'memberCount', (SELECT count(*) FROM alerts.contact_group_users u WHERE u.group_id = g.id)::int
             + (SELECT count(*) FROM alerts.external_contacts c WHERE c.group_id = g.id)::int,
           'externalCount', (SELECT count(*) FROM alerts.external_contacts c WHERE c.group_id = g.id)::int)
         ORDER BY array_position(a.group_ids, g.id)), '[]'::json)
  FROM alerts.contact_groups g WHERE g.id = ANY(a.group_ids)) END AS target_groups`;

export const ALERT_COLUMNS_SQL = `${ALERT_BASE_COLUMNS_SQL}, ${lastChangeSql('a')}, ${TARGET_GROUPS_SQL}`;

/**
 * Alert `alias` may be shown to the public (the CAP feed) or to anyone signed in: it has an area, or targets no contact
 * group. An alert to groups alone is private to their members (issue #42).
 */
export const publicAlertSql = (alias = 'a') => `(cardinality(${alias}.group_ids) = 0 OR ${alias}.lat IS NOT NULL)`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toSummary(r: AlertRow): AlertSummary {
  return {
    id: r.id,
    title: r.title,
    message: r.message,
    severity: r.severity,
    priority: priorityOfSeverity(r.severity),
    category: r.category,
    type: r.type,
    status: r.status,
    locationName: r.location_name,
    lat: r.lat,
    lng: r.lng,
    radiusKm: r.radius_km,
    area: toContractArea(r),
    channels: r.channels,
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at),
    version: r.version ?? 1,
    allClear: r.all_clear_at ? { at: iso(r.all_clear_at)!, message: r.all_clear_message ?? null, translations: r.all_clear_translations ?? {} } : null,
    lastChange: toChange(r.last_change),
  };
}

function toChange(c: LastChangeColumn | null | undefined): AlertChange | null {
  if (!c) return null;
  return {
    version: c.version,
    kind: c.kind,
    at: new Date(c.at).toISOString(),
    fields: c.fields ?? [],
    severityFrom: c.severity_from ?? null,
  };
}

export function toAdminAlert(r: AlertRow): AdminAlert {
  const summary = toDeliverySummary(r.counts);
  return {
    ...toSummary(r),
    translations: r.translations ?? {},
    createdBy: r.created_by,
    updatedAt: iso(r.updated_at)!,
    revision: r.revision ?? 1,
    sentAt: iso(r.sent_at),
    source: r.source,
    recipients: r.recipients,
    concerned: r.concerned ?? null,
    summary,
    deliveryLabel: deliveryLabel(summary, r),
    successRate: alertSuccessRate(summary, { status: r.status, sentAt: iso(r.sent_at) }),
    responses: toResponses(r),
    reminder: toReminder(r),
    createdByEmail: r.created_by_email ?? null,
    // The column keeps the time a send was scheduled for once it went out; the contract shows it only while it waits.
    sendAt: r.status === 'scheduled' || r.status === 'pending_approval' ? iso(r.send_at ?? null) : null,
    approval: r.approval ?? null,
    breakGlass: r.break_glass ?? null,
    groups: r.target_groups ?? [],
  };
}

function toReminder(r: AlertRow): AlertReminder | null {
  if (!r.remind_after_minutes) return null;
  return {
    afterMinutes: r.remind_after_minutes,
    dueAt: r.dispatched_at ? new Date(new Date(r.dispatched_at).getTime() + r.remind_after_minutes * 60_000).toISOString() : null,
    sentAt: iso(r.reminded_at ?? null),
    deliveries: r.reminders ?? null,
  };
}

/** An alert as a user reads it: its text in their language (`language`), else in English. */
/**
 * The alert as its readers are told of it live (alert:new, alert:updated), by language: what their feed reads, read or
 * not; made once per language however many groups of readers there are.
 */
export function readerEvents(r: AlertRow): (language: string | null) => ReaderAlertEvent {
  const made = new Map<string | null, ReaderAlertEvent>();
  return (language) => {
    let event = made.get(language);
    if (!event) {
      const { read: _read, readAt: _readAt, ...text } = toUserAlert(r, language);
      made.set(language, (event = text));
    }
    return event;
  };
}

export function toUserAlert(r: AlertRow, language?: string | null): UserAlert {
  const text = textInLanguage(r, language);
  const summary = toSummary(r);
  // The all-clear in the language the alert is read in, like its title (allClearMessageIn); its other languages are the admins'.
  const allClear = summary.allClear && { at: summary.allClear.at, message: allClearMessageIn(summary.allClear, text.language) };
  return { ...summary, allClear, ...text, read: !!r.read_at, readAt: iso(r.read_at ?? null) };
}

import {
  AdminAlert,
  AlertCategory,
  AlertReminder,
  AlertResponses,
  AlertStatus,
  AlertSummary,
  AlertTranslations,
  DeliveryChannel,
  DeliverySummary,
  deliveryLabel,
  DeliveryStatus,
  emptyCounts,
  priorityOfSeverity,
  Severity,
  successRate,
  textInLanguage,
  UserAlert,
} from '@beacon/contracts';
import { toContractArea } from './alert-area';

/** An alerts.alerts row as the queries below select it (status already reflects expires_at). */
export interface AlertRow {
  id: string;
  title: string;
  message: string;
  /** The text in other languages ('{}' when none). */
  translations: AlertTranslations;
  type: string;
  severity: Severity;
  category: AlertCategory;
  location_name: string | null;
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  /** A polygon alert's ring in PostgreSQL's text form (AlertPolygons migration); null for a circle or no area. */
  area_polygon: string | null;
  expires_at: Date | null;
  channels: DeliveryChannel[];
  status: AlertStatus;
  source: 'admin' | 'incident' | 'test' | 'cap';
  created_by: string | null;
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
  /** [channel, status, n] triples from alert_delivery_counts. */
  counts?: [DeliveryChannel, string, number][];
  /** RESPONSES_SQL, where it was read. */
  safe?: number;
  need_help?: number;
  help_open?: number;
  read_at?: Date | null;
}

/** The one expiry rule: an alert whose expiry has come (`alias` names the alerts table in the query). */
export const expiredSql = (alias = 'a') => `(${alias}.expires_at IS NOT NULL AND ${alias}.expires_at <= now())`;

/** Status as callers see it: an active alert past its expiry IS expired, whether or not the sweep ran yet. */
export const EFFECTIVE_STATUS_SQL = `(CASE WHEN a.status = 'active' AND ${expiredSql('a')} THEN 'expired' ELSE a.status END)`;

export const ALERT_COLUMNS_SQL = `a.id, a.title, a.message, a.translations, a.type, a.severity, a.category, a.location_name, a.lat, a.lng, a.radius_km,
  a.area_polygon, a.expires_at, a.channels, ${EFFECTIVE_STATUS_SQL} AS status, a.source, a.created_by, a.recipients, a.dispatched_at, a.sent_at,
  a.created_at, a.updated_at, a.concerned, a.remind_after_minutes, a.reminded_at, a.reminders, a.version, a.revision, a.all_clear_at, a.all_clear_message`;

/**
 * [channel, status, n] per channel and status from the roll-up, and [channel, 'held', n]: pending deliveries
 * whose not_before is still ahead, counted now from the held-deliveries index (HeldDeliveries migration), which
 * holds only rows written with a release time, so an alert that holds nothing costs one index probe; and
 * [channel, 'retrying', n]: deliveries waiting for (or in) a retry after a transient failure, from the retry index
 * (DeliveryOperations), as small.
 */
export const COUNTS_SQL = `COALESCE((SELECT jsonb_agg(jsonb_build_array(c.channel, c.status, c.n)) FROM (
    SELECT c.channel, c.status, sum(c.n)::int AS n FROM alerts.alert_delivery_counts c WHERE c.alert_id = a.id GROUP BY 1, 2 HAVING sum(c.n) <> 0
    UNION ALL
    SELECT h.channel, 'held', count(*)::int FROM alerts.alert_deliveries h
    WHERE h.alert_id = a.id AND h.not_before IS NOT NULL AND h.not_before > now() AND h.status = 'pending' GROUP BY h.channel
    UNION ALL
    SELECT r.channel, 'retrying', count(*)::int FROM alerts.alert_deliveries r
    WHERE r.alert_id = a.id AND r.next_attempt_at IS NOT NULL AND r.status IN ('pending','sending') GROUP BY r.channel) c), '[]'::jsonb) AS counts`;

/** The people's answers to an alert ("I'm Safe", help requests), counted from their own tables' alert indexes. */
export const RESPONSES_SQL = `(SELECT count(*) FROM alerts.alert_reads r WHERE r.alert_id = a.id)::int AS safe,
  (SELECT count(*) FROM alerts.help_requests h WHERE h.alert_id = a.id)::int AS need_help,
  (SELECT count(*) FROM alerts.help_requests h WHERE h.alert_id = a.id AND h.status = 'open')::int AS help_open`;

export const toResponses = (r: { safe?: number; need_help?: number; help_open?: number }): AlertResponses => ({
  safe: r.safe ?? 0,
  needHelp: r.need_help ?? 0,
  helpOpen: r.help_open ?? 0,
});

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
    allClear: r.all_clear_at ? { at: iso(r.all_clear_at)!, message: r.all_clear_message ?? null } : null,
  };
}

/** The per-channel summary from COUNTS_SQL; the dispatcher's in-flight 'sending' counts as pending, held and retrying are apart. */
export function toDeliverySummary(counts: [DeliveryChannel, string, number][] = []): DeliverySummary {
  const summary: DeliverySummary = {};
  for (const [channel, status, n] of counts) {
    const c = (summary[channel] ??= { ...emptyCounts(), held: 0, retrying: 0 });
    if (status === 'held') c.held = Number(n);
    else if (status === 'retrying') c.retrying = Number(n);
    else c[(status === 'sending' ? 'pending' : status) as DeliveryStatus] += Number(n);
  }
  return summary;
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
    successRate: successRate(summary),
    responses: toResponses(r),
    reminder: toReminder(r),
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
export function toUserAlert(r: AlertRow, language?: string | null): UserAlert {
  const text = textInLanguage(r, language);
  return { ...toSummary(r), ...text, read: !!r.read_at, readAt: iso(r.read_at ?? null) };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AlertApproval, AlertAreaPart, AlertCategory, AlertStatus, AlertTranslations, DEFAULT_PREFERENCES, DeliveryChannel, Severity } from '@beacon/contracts';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { Actor, AuditRepository, SYSTEM } from './audit.repository';
import { expiredSql } from '../deliveries/delivery-alerts.repository';
import { COUNTS_SQL, RESPONSES_SQL } from '../deliveries/delivery-counts';
import { eligibilityWhere, groupMembersSql } from '../deliveries/eligibility.sql';
import { toPgPolygon } from '../deliveries/polygon-column';
import { ALERT_BASE_COLUMNS_SQL, ALERT_COLUMNS_SQL, AlertRow, EFFECTIVE_STATUS_SQL, lastChangeSql, publicAlertSql } from './alert.rows';

export interface NewAlert {
  title: string;
  message: string;
  /** The text in other languages (CreateAlertDto.translations); absent or {}: English only. */
  translations?: AlertTranslations;
  type: string;
  severity: Severity;
  category: AlertCategory;
  locationName: string | null;
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  /** A drawn area's stored ring (alert-area.ts StoredArea); lat/lng are then its centroid, radiusKm null. */
  polygon?: [number, number][] | null;
  /** An area of several parts (alert-area.ts StoredArea); lat/lng are then their centre, radiusKm and polygon null. */
  parts?: AlertAreaPart[] | null;
  /** A one-part area's description (CAP areaDesc). */
  areaDescription?: string | null;
  /** The contact groups it targets besides or instead of its area (issue #42), duplicates merged; absent or []: none. */
  groupIds?: string[];
  expiresAt: Date | null;
  channels: DeliveryChannel[];
  /** scheduled: goes out by itself at sendAt; pending_approval: waits for a second person (approval). */
  status: 'draft' | 'active' | 'scheduled' | 'pending_approval';
  source: 'admin' | 'incident' | 'test' | 'cap';
  sourceRef?: string | null;
  createdBy: string | null;
  /** The author's e-mail, shown beside their id. */
  createdByEmail?: string | null;
  /** When a scheduled send goes out (status scheduled, or pending_approval for a time). */
  sendAt?: Date | null;
  /** The request for approval, with status pending_approval. */
  approval?: AlertApproval | null;
  idempotencyKey?: string | null;
  /** A digest of what the request asked for, stored with the key (see AlertsService.create). */
  idempotencyFingerprint?: string | null;
  /** The escalation's delay (CreateAlertDto.remindAfterMinutes); null: none. */
  remindAfterMinutes?: number | null;
}

/** What a draft's send becomes: sent now, scheduled for `sendAt`, or waiting for `approval` (then for `sendAt`, if any). */
interface SendRequest {
  sendAt: Date | null;
  approval: AlertApproval | null;
}

const statusOfSend = (r: SendRequest): 'active' | 'scheduled' | 'pending_approval' => (r.approval ? 'pending_approval' : r.sendAt ? 'scheduled' : 'active');

export interface AlertListFilter {
  type?: string;
  severities?: Severity[];
  category?: AlertCategory;
  status?: AlertStatus;
  search?: string;
  /** Only the alert a verified incident created. */
  incident?: string;
  includeTests?: boolean;
  offset: number;
  limit: number;
}

/**
 * p: the user's ($1) preferences, or the defaults ($2 threshold, $3 categories, no home) when they saved none, so
 * the screens and the dispatcher agree on what concerns a user.
 */
const PREFERENCES_OR_DEFAULTS = `p AS (
  SELECT user_id, severity_threshold, categories, lat, lng, radius_km FROM alerts.user_preferences WHERE user_id = $1
  UNION ALL
  SELECT $1::uuid, $2::text, $3::text[], NULL::float8, NULL::float8, NULL::float8
  WHERE NOT EXISTS (SELECT 1 FROM alerts.user_preferences WHERE user_id = $1))`;

/**
 * Alert `a` concerns the user whose preferences are `p`: the dispatcher's rule, so a user who has not set a home
 * location yet sees only the alerts with no area (issues 20 and 42), as only those reach them, and the screens say why
 * and ask for a location; and a member of one of its contact groups (issue #42) sees it, as a member now.
 */
export const ALERT_ELIGIBLE_SQL = eligibilityWhere({
  severity: 'a.severity',
  category: 'a.category',
  lat: 'a.lat',
  lng: 'a.lng',
  radiusKm: 'a.radius_km',
  polygon: 'a.area_polygon',
  parts: 'a.area_parts',
  groups: 'a.group_ids',
});

/**
 * The alerts in the feed of the user ($1, preferences `p`), as ids: those with a delivery to them, and every dispatched
 * alert that concerns them by their current preferences, whether or not a channel reached them (a user with no push
 * subscription, SMS or email still sees on the screen what was sent to their area). `also`: a further condition on
 * the second set's alert `a` (the first is narrowed by the caller's join).
 */
const MY_ALERT_IDS_SQL = (also = 'true') => `SELECT d.alert_id AS id FROM alerts.alert_deliveries d WHERE d.user_id = $1
  UNION
  SELECT a.id FROM alerts.alerts a CROSS JOIN p
  WHERE a.dispatched_at IS NOT NULL AND a.source <> 'test' AND ${ALERT_ELIGIBLE_SQL} AND ${also}`;

/** An alert still in effect (alias a): active and not past its expiry, whether or not the sweep ran yet. */
const IN_EFFECT_SQL = `(a.status = 'active' AND NOT ${expiredSql('a')})`;

/** `%` and `_` in user search text are literals, not wildcards. */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

@Injectable()
export class AlertsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly audit: AuditRepository,
  ) {}

  /**
   * Inserts an alert; with an idempotency key, a second insert of the same key by the same creator (or a
   * second draft for the same source) inserts nothing and returns the first alert's id with created=false, and
   * the fingerprint the first request stored (null when it stored none). The audit trail records who created it
   * (and sent, scheduled or asked approval for it, unless it is a draft) in the same transaction.
   */
  async insert(a: NewAlert, actor: Actor = { id: a.createdBy }): Promise<{ id: string; created: boolean; fingerprint?: string | null }> {
    const rows = await this.ds.transaction(async (m) => {
      const inserted = await m.query(
        `INSERT INTO alerts.alerts (title, message, type, severity, category, location_name, lat, lng, radius_km, expires_at, channels,
         status, source, source_ref, created_by, idempotency_key, idempotency_fingerprint, remind_after_minutes, sent_at, area_polygon,
         translations, created_by_email, send_at, approval, area_parts, area_description, group_ids)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18, CASE WHEN $12 = 'active' THEN now() END, $19::polygon,
         $20::jsonb, $21, $22, $23::jsonb, $24::jsonb, $25, $26::uuid[])
       ON CONFLICT DO NOTHING
       RETURNING id`,
        [
          a.title,
          a.message,
          a.type,
          a.severity,
          a.category,
          a.locationName,
          a.lat,
          a.lng,
          a.radiusKm,
          a.expiresAt,
          a.channels,
          a.status,
          a.source,
          a.sourceRef ?? null,
          a.createdBy,
          a.idempotencyKey ?? null,
          a.idempotencyFingerprint ?? null,
          a.remindAfterMinutes ?? null,
          a.polygon ? toPgPolygon(a.polygon) : null,
          JSON.stringify(a.translations ?? {}),
          a.createdByEmail ?? null,
          a.sendAt ?? null,
          a.approval ? JSON.stringify(a.approval) : null,
          a.parts?.length ? JSON.stringify(a.parts) : null,
          a.areaDescription ?? null,
          a.groupIds ?? [],
        ],
      );
      if (inserted.length) {
        await this.audit.record(m, [inserted[0].id], 'created', actor, { source: a.source, status: a.status });
        if (a.status !== 'draft') await this.recordSend(m, inserted[0].id, { sendAt: a.sendAt ?? null, approval: a.approval ?? null }, actor);
      }
      return inserted;
    });
    if (rows.length) return { id: rows[0].id, created: true };
    const [existing] = a.idempotencyKey
      ? await this.ds.query(`SELECT id, idempotency_fingerprint FROM alerts.alerts WHERE created_by IS NOT DISTINCT FROM $1 AND idempotency_key = $2`, [
          a.createdBy,
          a.idempotencyKey,
        ])
      : await this.ds.query(`SELECT id FROM alerts.alerts WHERE source = $1 AND source_ref = $2`, [a.source, a.sourceRef]);
    if (!existing) throw new Error('alert insert conflicted but no existing alert was found');
    return { id: existing.id, created: false, fingerprint: existing.idempotency_fingerprint ?? null };
  }

  /** Of the contact groups `ids`, those that do not exist, in the order given. */
  async missingGroups(ids: readonly string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows: { id: string }[] = await this.ds.query(
      `SELECT t.id FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, i)
       WHERE NOT EXISTS (SELECT 1 FROM alerts.contact_groups g WHERE g.id = t.id) ORDER BY t.i`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  async findById(id: string): Promise<AlertRow | null> {
    const [row] = await this.ds.query(`SELECT ${ALERT_COLUMNS_SQL}, ${COUNTS_SQL}, ${RESPONSES_SQL} FROM alerts.alerts a WHERE a.id = $1`, [id]);
    return row ?? null;
  }

  async list(f: AlertListFilter): Promise<{ rows: AlertRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (!f.includeTests) where.push(`a.source <> 'test'`);
    if (f.type) add(`a.type = ?`, f.type);
    if (f.severities?.length) add(`a.severity = ANY(?::text[])`, f.severities);
    if (f.category) add(`a.category = ?`, f.category);
    if (f.status) add(`${EFFECTIVE_STATUS_SQL} = ?`, f.status);
    if (f.incident) add(`a.source = 'incident' AND a.source_ref = ?`, f.incident);
    if (f.search) {
      params.push(likePattern(f.search));
      where.push(`(a.title ILIKE $${params.length} OR a.message ILIKE $${params.length})`);
    }
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM alerts.alerts a ${whereSql}`, params);
    const rows = await this.ds.query(
      `SELECT ${ALERT_COLUMNS_SQL}, ${COUNTS_SQL}, ${RESPONSES_SQL} FROM alerts.alerts a ${whereSql}
       ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    );
    return { rows, total };
  }

  /** Moves an alert between statuses; returns the row after the change, or null when it was not in `from`. */
  async transition(id: string, from: AlertStatus[], to: AlertStatus, m: EntityManager = this.ds.manager): Promise<AlertRow | null> {
    // TypeORM returns [rows, count] for UPDATE ... RETURNING
    const [rows] = await m.query(
      `UPDATE alerts.alerts a SET status = $3, updated_at = now(), sent_at = CASE WHEN $3 = 'active' THEN now() ELSE a.sent_at END
       WHERE a.id = $1 AND ${EFFECTIVE_STATUS_SQL} = ANY($2::text[]) RETURNING ${ALERT_COLUMNS_SQL}`,
      [id, from, to],
    );
    return rows[0] ?? null;
  }

  /**
   * A draft's send asked by `actor`: sent now, scheduled, or waiting for approval (SendRequest), audited in the same
   * transaction; null when it is no longer a draft. A previous rejection stays in `approval` until a new request
   * replaces it.
   */
  async send(id: string, actor: Actor, request: SendRequest = { sendAt: null, approval: null }): Promise<AlertRow | null> {
    return this.ds.transaction(async (m) => {
      const [rows] = await m.query(
        `UPDATE alerts.alerts a SET status = $2, updated_at = now(), sent_at = CASE WHEN $2 = 'active' THEN now() ELSE a.sent_at END,
           send_at = $3, approval = coalesce($4::jsonb, a.approval)
         WHERE a.id = $1 AND ${EFFECTIVE_STATUS_SQL} = 'draft' RETURNING ${ALERT_COLUMNS_SQL}`,
        [id, statusOfSend(request), request.sendAt, request.approval ? JSON.stringify(request.approval) : null],
      );
      const row: AlertRow | undefined = rows[0];
      if (row) await this.recordSend(m, id, request, actor);
      return row ?? null;
    });
  }

  /** The audit entry of a send as asked: 'sent', 'scheduled' (for when) or 'approval_requested' (why, and for when). */
  private recordSend(m: EntityManager, id: string, r: SendRequest, actor: Actor) {
    const sendAt = r.sendAt?.toISOString();
    if (r.approval) return this.audit.record(m, [id], 'approval_requested', actor, { reason: r.approval.reason, ...(sendAt ? { sendAt } : {}) });
    if (sendAt) return this.audit.record(m, [id], 'scheduled', actor, { sendAt });
    return this.audit.record(m, [id], 'sent', actor);
  }

  /**
   * An alert cancelled by `actor` (a draft, one waiting for its time or its approval, or one in effect), its held
   * deliveries with it, audited, in one transaction. The conditional update is what keeps a cancel and an approval
   * of the same alert apart: one of them finds it no longer in the status it expects.
   */
  async cancel(id: string, actor: Actor): Promise<AlertRow | null> {
    return this.ds.transaction(async (m) => {
      const row = await this.transition(id, ['draft', 'scheduled', 'pending_approval', 'active'], 'cancelled', m);
      if (row) {
        await this.deliveryRows.cancelPendingForEndedAlerts(m, [id], 'alert cancelled');
        await this.audit.record(m, [id], 'cancelled', actor);
      }
      return row;
    });
  }

  /**
   * Alerts whose expiry passed: marked expired, their held deliveries cancelled, in one transaction. Those in effect,
   * and those still waiting for their time or an approval: they will not go out after their expiry.
   */
  async expireDue(): Promise<AlertRow[]> {
    return this.ds.transaction(async (m) => {
      const [rows] = await m.query(
        `UPDATE alerts.alerts a SET status = 'expired', updated_at = now()
         WHERE a.status IN ('active', 'scheduled', 'pending_approval') AND a.expires_at <= now() RETURNING ${ALERT_COLUMNS_SQL}`,
      );
      const expired = (rows ?? []) as AlertRow[];
      if (expired.length)
        await this.deliveryRows.cancelPendingForEndedAlerts(
          m,
          expired.map((r) => r.id),
          'alert expired',
        );
      await this.audit.record(
        m,
        expired.map((r) => r.id),
        'expired',
        SYSTEM,
      );
      return expired;
    });
  }

  /**
   * The scheduled sends that came due, made active in one conditional UPDATE (a row another sweep claimed first is
   * locked, then no longer scheduled, so each goes out once), audited as sent by Beacon, in one transaction. Making
   * them active is what records their dispatch intent in the outbox (the alerts_dispatch_intent trigger), in this same
   * transaction: committed, the dispatch is queued whatever happens to this process; a cancelled one is no longer
   * scheduled and is never claimed. One past its expiry is left to expireDue.
   */
  async claimDueScheduled(limit = 500): Promise<AlertRow[]> {
    return this.ds.transaction(async (m) => {
      const [rows] = await m.query(
        `UPDATE alerts.alerts a SET status = 'active', sent_at = now(), updated_at = now()
         WHERE a.id IN (SELECT id FROM alerts.alerts WHERE status = 'scheduled' AND send_at <= now() ORDER BY send_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           AND a.status = 'scheduled' AND NOT ${expiredSql('a')}
         RETURNING ${ALERT_COLUMNS_SQL}`,
        [limit],
      );
      const claimed = (rows ?? []) as AlertRow[];
      for (const row of claimed) await this.audit.record(m, [row.id], 'sent', SYSTEM, { scheduledFor: new Date(row.send_at!).toISOString() });
      return claimed;
    });
  }

  /** Active alerts never dispatched (e.g. the enqueue after commit was lost in a crash). */
  async undispatched(olderThanSeconds: number): Promise<string[]> {
    const rows = await this.ds.query(
      `SELECT id FROM alerts.alerts WHERE status = 'active' AND dispatched_at IS NULL AND sent_at < now() - make_interval(secs => $1) LIMIT 1000`,
      [olderThanSeconds],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /** Active alerts whose escalation is due: gone out `remind_after_minutes` ago and not reminded yet (its partial index). */
  async remindersDue(): Promise<string[]> {
    const rows = await this.ds.query(
      `SELECT id FROM alerts.alerts a
       WHERE a.remind_after_minutes IS NOT NULL AND a.reminded_at IS NULL AND a.dispatched_at IS NOT NULL
         AND a.dispatched_at + make_interval(mins => a.remind_after_minutes) <= now()
         AND a.status = 'active' AND NOT ${expiredSql('a')}
       ORDER BY a.dispatched_at LIMIT 100`,
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /** Dashboard figures over real alerts (test alerts excluded). */
  async stats(timeZone: string, days: number) {
    const [alerts] = await this.ds.query(
      `SELECT count(*) FILTER (WHERE a.status NOT IN ('draft', 'scheduled', 'pending_approval'))::int AS total_sent,
              count(*) FILTER (WHERE ${EFFECTIVE_STATUS_SQL} = 'active')::int AS active,
              count(*) FILTER (WHERE a.status = 'draft')::int AS drafts
       FROM alerts.alerts a WHERE a.source <> 'test'`,
    );
    const counts: { status: string; n: number }[] = await this.ds.query(
      `SELECT c.status, sum(c.n)::int AS n FROM alerts.alert_delivery_counts c
       JOIN alerts.alerts a ON a.id = c.alert_id AND a.source <> 'test' GROUP BY c.status`,
    );
    const perDay: { day: string; total: number; successful: number; failed: number }[] = await this.ds.query(
      `WITH days AS (
         SELECT generate_series((now() AT TIME ZONE $1)::date - ($2::int - 1), (now() AT TIME ZONE $1)::date, interval '1 day')::date AS day)
       SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
              count(d.id)::int AS total,
              count(d.id) FILTER (WHERE d.status IN ('sent','delivered','read'))::int AS successful,
              count(d.id) FILTER (WHERE d.status = 'failed')::int AS failed
       FROM days
       LEFT JOIN alerts.alert_deliveries d
         ON d.created_at >= (days.day::timestamp AT TIME ZONE $1) AND d.created_at < ((days.day + 1)::timestamp AT TIME ZONE $1)
         AND EXISTS (SELECT 1 FROM alerts.alerts a WHERE a.id = d.alert_id AND a.source <> 'test')
       GROUP BY days.day ORDER BY days.day`,
      [timeZone, days],
    );
    return { alerts, counts, perDay };
  }

  /**
   * The user's alerts (MY_ALERT_IDS_SQL), newest first, with their read time, but those they dismissed. One
   * statement: the two sets are read from their own indexes (the user's deliveries, the dispatched alerts), merged,
   * then filtered, counted and paged; the last change is read for the page's rows only.
   */
  async forUser(userId: string, f: { severity?: Severity; search?: string; unreadOnly?: boolean; offset: number; limit: number }) {
    const params: unknown[] = [userId, DEFAULT_PREFERENCES.severityThreshold, DEFAULT_PREFERENCES.categories];
    const where: string[] = [];
    if (f.severity) where.push(`a.severity = $${params.push(f.severity)}`);
    if (f.search) {
      const i = params.push(likePattern(f.search));
      where.push(`(a.title ILIKE $${i} OR a.message ILIKE $${i})`);
    }
    if (f.unreadOnly) where.push(`r.read_at IS NULL`);
    where.push(`NOT EXISTS (SELECT 1 FROM alerts.alert_dismissals x WHERE x.user_id = $1 AND x.alert_id = a.id)`);
    const rows: (AlertRow & { total: number })[] = await this.ds.query(
      `WITH ${PREFERENCES_OR_DEFAULTS},
       mine AS (
         SELECT ${ALERT_BASE_COLUMNS_SQL}, r.read_at
         FROM (${MY_ALERT_IDS_SQL()}) m
         JOIN alerts.alerts a ON a.id = m.id
         LEFT JOIN alerts.alert_reads r ON r.alert_id = a.id AND r.user_id = $1
         WHERE ${where.join(' AND ')})
       SELECT t.total, pg.*, ${lastChangeSql('pg')} FROM (SELECT count(*)::int AS total FROM mine) t
       LEFT JOIN LATERAL (SELECT * FROM mine ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) pg ON true`,
      [...params, f.limit, f.offset],
    );
    // A page past the end is the one row of the count, with no alert.
    return { rows: rows.filter((r) => r.id !== null).map(({ total: _, ...row }) => row as AlertRow), total: rows[0]?.total ?? 0 };
  }

  /**
   * How many alerts of the user's feed (MY_ALERT_IDS_SQL) are in effect and unread: the header's count (issue #40). An
   * ended alert never counts, read or not; only alerts in effect are read from the dispatched ones.
   */
  async unreadCount(userId: string): Promise<number> {
    const [{ count }] = await this.ds.query(
      `WITH ${PREFERENCES_OR_DEFAULTS}
       SELECT count(*)::int AS count FROM (${MY_ALERT_IDS_SQL(IN_EFFECT_SQL)}) m
       JOIN alerts.alerts a ON a.id = m.id
       WHERE ${IN_EFFECT_SQL} AND NOT EXISTS (SELECT 1 FROM alerts.alert_reads r WHERE r.alert_id = a.id AND r.user_id = $1)`,
      [userId, DEFAULT_PREFERENCES.severityThreshold, DEFAULT_PREFERENCES.categories],
    );
    return count;
  }

  /** The status of an alert in the user's feed (MY_ALERT_IDS_SQL), as callers see it; null when it is not in it. */
  async statusInFeed(alertId: string, userId: string): Promise<AlertStatus | null> {
    const [row] = await this.ds.query(
      `WITH ${PREFERENCES_OR_DEFAULTS}
       SELECT ${EFFECTIVE_STATUS_SQL} AS status FROM alerts.alerts a CROSS JOIN p
       WHERE a.id = $4 AND (
         EXISTS (SELECT 1 FROM alerts.alert_deliveries d WHERE d.alert_id = a.id AND d.user_id = $1)
         OR (a.dispatched_at IS NOT NULL AND a.source <> 'test' AND ${ALERT_ELIGIBLE_SQL}))`,
      [userId, DEFAULT_PREFERENCES.severityThreshold, DEFAULT_PREFERENCES.categories, alertId],
    );
    return row?.status ?? null;
  }

  /**
   * An ended alert put away by the user. Not a read mark: that is their "I'm safe", which the console counts. A second
   * dismissal keeps the first's time.
   */
  async dismiss(alertId: string, userId: string): Promise<Date> {
    const [row] = await this.ds.query(
      `INSERT INTO alerts.alert_dismissals (alert_id, user_id) VALUES ($1, $2)
       ON CONFLICT (user_id, alert_id) DO UPDATE SET dismissed_at = alerts.alert_dismissals.dismissed_at
       RETURNING dismissed_at`,
      [alertId, userId],
    );
    return row.dismissed_at as Date;
  }

  /** Active, unexpired alerts that concern this user by their preferences (defaults when they saved none). */
  async activeForUser(userId: string, limit: number): Promise<AlertRow[]> {
    return this.ds.query(
      `WITH ${PREFERENCES_OR_DEFAULTS}
       SELECT ${ALERT_COLUMNS_SQL}, r.read_at
       FROM alerts.alerts a CROSS JOIN p
       LEFT JOIN alerts.alert_reads r ON r.alert_id = a.id AND r.user_id = $1
       WHERE a.status = 'active' AND (a.expires_at IS NULL OR a.expires_at > now()) AND a.source <> 'test'
         AND ${ALERT_ELIGIBLE_SQL}
       ORDER BY a.created_at DESC LIMIT $4`,
      [userId, DEFAULT_PREFERENCES.severityThreshold, DEFAULT_PREFERENCES.categories, limit],
    );
  }

  /** The language the user reads alerts in (their preference); null when they chose none (English). */
  async languageOf(userId: string): Promise<string | null> {
    const [row] = await this.ds.query(`SELECT language FROM alerts.user_preferences WHERE user_id = $1`, [userId]);
    return row?.language ?? null;
  }

  /**
   * One alert as a user may see it: one sent to them, or any active one (public safety information) but one to contact
   * groups alone, which only their members may see (issue #42).
   */
  async findForUser(alertId: string, userId: string): Promise<AlertRow | null> {
    const [row] = await this.ds.query(
      `SELECT ${ALERT_COLUMNS_SQL}, r.read_at FROM alerts.alerts a
       LEFT JOIN alerts.alert_reads r ON r.alert_id = a.id AND r.user_id = $2
       WHERE a.id = $1 AND a.source <> 'test' AND (
         EXISTS (SELECT 1 FROM alerts.alert_deliveries d WHERE d.alert_id = a.id AND d.user_id = $2)
         OR (${EFFECTIVE_STATUS_SQL} = 'active' AND (${publicAlertSql('a')} OR $2::uuid IN (${groupMembersSql('a.group_ids')}))))`,
      [alertId, userId],
    );
    return row ?? null;
  }

  /**
   * "I'm Safe": the user's read mark, and their deliveries of this alert marked read (DeliveriesRepository.markRead),
   * atomically.
   */
  async markRead(alertId: string, userId: string): Promise<Date> {
    return this.ds.transaction(async (m) => {
      const [row] = await m.query(
        `INSERT INTO alerts.alert_reads (alert_id, user_id) VALUES ($1, $2)
         ON CONFLICT (user_id, alert_id) DO UPDATE SET read_at = alerts.alert_reads.read_at RETURNING read_at`,
        [alertId, userId],
      );
      await this.deliveryRows.markRead(m, alertId, userId, row.read_at);
      return row.read_at as Date;
    });
  }
}

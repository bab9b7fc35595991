import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AlertAreaPart, AllClearTranslations, AlertTranslations, AlertUpdateField, AlertVersion, Severity } from '@beacon/contracts';
import { AppError, badRequest, conflict, notFound } from '@beacon/common';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import type { EligibilityAlert } from '../deliveries/eligibility.sql';
import { ALERT_COLUMNS_SQL, AlertRow, lastChangeSql } from './alert.rows';
import { StoredArea, storedAreaColumns, toContractArea } from './alert-area';
import { assertSmsFits } from './alert-texts';
import { Actor, AuditRepository } from './audit.repository';

/** What an update sets: only the fields given change. */
export interface AlertChanges {
  title?: string;
  message?: string;
  /** Replaces the alert's translations whole. */
  translations?: AlertTranslations;
  severity?: Severity;
  expiresAt?: Date | null;
  /** `where`: a new area, whole (toAlertArea); `radiusKm` alone: the circle resized; `locationName`: its name. */
  area?: { locationName?: string | null; where?: StoredArea; radiusKm?: number };
  /** The contact groups it targets from now on, replacing its own whole (toGroupIds). */
  groupIds?: string[];
}

export interface VersionRow {
  alert_id: string;
  version: number;
  kind: AlertVersion['kind'];
  dispatched_at: Date | null;
}

/** What the admin was looking at when they made an update: the alert's version and (required for a draft) revision. */
export interface SeenState {
  version?: number;
  revision?: number;
}

/** An alert row as a version keeps it: every column but the request's idempotency data. */
const SNAPSHOT_SQL = `(to_jsonb(a) - ARRAY['idempotency_key', 'idempotency_fingerprint', 'batch_sizes'])`;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * An alert's versions (AlertRevisions migration): an update and the all-clear each change the alert row and write the
 * version, its audit entry and (for the all-clear) the end of what is still on its way, in one transaction, under the
 * row's lock, so two admins acting at once make two versions in order, never one lost. The first change also keeps
 * the alert as it was sent (version 1).
 */
@Injectable()
export class RevisionsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly audit: AuditRepository,
  ) {}

  /**
   * An update. A draft is edited in place (nothing went out, so there is no version to keep and nobody to tell: it
   * stays version 1); an alert in effect gets a new version.
   */
  async update(id: string, changes: AlertChanges, actor: Actor, seen: SeenState = {}): Promise<{ row: AlertRow; changed: AlertUpdateField[] }> {
    return this.ds.transaction(async (m) => {
      const current = await this.lockInEffect(m, id, 'updated', ['active', 'draft']);
      const draft = current.status === 'draft';
      if (!draft && current.recipients === null) throw conflict('This alert is still being dispatched; try again in a moment', 'alert_not_dispatched');
      assertSeenIsCurrent(current, seen);
      const area = changes.area ?? {};
      afterChanges(current, changes); // for its refusals: the new area is written below
      const changed = changedFields(current, changes);
      if (!changed.length) throw badRequest('Nothing to update: the alert already says this', 'nothing_to_update');
      assertUpdateFits(current, changes);
      if (!draft) await this.keepOriginal(m, id);
      // A new area replaces the old one whole (the AlertPolygons and MultiAreas constraints want one shape).
      const where = area.where && storedAreaColumns(area.where);
      const [[row]] = await m.query(
        `UPDATE alerts.alerts a SET
           title = coalesce($2, a.title), message = coalesce($3, a.message), severity = coalesce($4, a.severity),
           expires_at = CASE WHEN $5 THEN $6::timestamptz ELSE a.expires_at END,
           location_name = CASE WHEN $7 THEN $8 ELSE a.location_name END,
           lat = CASE WHEN $9 THEN $10::float8 ELSE a.lat END, lng = CASE WHEN $9 THEN $11::float8 ELSE a.lng END,
           radius_km = CASE WHEN $9 THEN $12::float8 ELSE coalesce($14::float8, a.radius_km) END,
           area_polygon = CASE WHEN $9 THEN $13::polygon ELSE a.area_polygon END,
           area_parts = CASE WHEN $9 THEN $17::jsonb ELSE a.area_parts END,
           area_description = CASE WHEN $9 THEN $18 ELSE a.area_description END,
           group_ids = coalesce($19::uuid[], a.group_ids),
           translations = coalesce($15::jsonb, a.translations),
           version = a.version + CASE WHEN $16 THEN 0 ELSE 1 END, updated_at = now()
         WHERE a.id = $1 RETURNING ${ALERT_COLUMNS_SQL}`,
        [
          id,
          changes.title ?? null,
          changes.message ?? null,
          changes.severity ?? null,
          changes.expiresAt !== undefined,
          changes.expiresAt ?? null,
          area.locationName !== undefined,
          area.locationName ?? null,
          where !== undefined,
          where?.lat ?? null,
          where?.lng ?? null,
          where?.radius_km ?? null,
          where?.area_polygon ?? null,
          area.radiusKm ?? null,
          changes.translations === undefined ? null : JSON.stringify(changes.translations),
          draft,
          where?.area_parts ?? null,
          where?.area_description ?? null,
          changes.groupIds ?? null,
        ],
      );
      if (!draft) {
        await this.addVersion(m, id, 'update', changed, actor);
        row.last_change = await this.lastChange(m, id);
      }
      await this.audit.record(m, [id], 'updated', actor, { version: row.version, changed, ...(draft ? { draft: true } : {}) });
      return { row: row as AlertRow, changed };
    });
  }

  /**
   * The all-clear: the alert ends (status all_clear), what was still on its way to people will not go. `translations`:
   * its words in the alert's other languages (AllClearTranslations migration), each reader told in theirs.
   */
  async allClear(id: string, message: string | null, actor: Actor, translations: AllClearTranslations = {}): Promise<AlertRow> {
    const languages = Object.keys(translations);
    return this.ds.transaction(async (m) => {
      await this.lockInEffect(m, id, 'given the all-clear');
      await this.keepOriginal(m, id);
      const [[row]] = await m.query(
        `UPDATE alerts.alerts a SET status = 'all_clear', all_clear_at = now(), all_clear_message = $2, all_clear_translations = $3::jsonb,
           version = a.version + 1, updated_at = now()
         WHERE a.id = $1 RETURNING ${ALERT_COLUMNS_SQL}`,
        [id, message, languages.length ? JSON.stringify(translations) : null],
      );
      await this.addVersion(m, id, 'all_clear', [], actor);
      row.last_change = await this.lastChange(m, id);
      await this.deliveryRows.cancelPendingForEndedAlerts(m, [id], 'all clear given');
      await this.audit.record(m, [id], 'all_clear', actor, {
        version: row.version,
        ...(message ? { message } : {}),
        ...(languages.length ? { languages } : {}),
      });
      return row as AlertRow;
    });
  }

  /** The alert's versions, oldest first; one that never changed is its one version, read from the row. */
  async list(id: string): Promise<AlertVersion[] | null> {
    const [alert] = await this.ds.query(`SELECT ${ALERT_COLUMNS_SQL}, ${SNAPSHOT_SQL} AS snapshot FROM alerts.alerts a WHERE a.id = $1`, [id]);
    if (!alert) return null;
    const rows: {
      version: number;
      kind: AlertVersion['kind'];
      snapshot: Snapshot;
      changed: AlertUpdateField[];
      actor_email: string | null;
      created_at: Date;
      recipients: number | null;
    }[] = await this.ds.query(
      `SELECT version, kind, snapshot, changed, actor_email, created_at, recipients FROM alerts.alert_versions WHERE alert_id = $1 ORDER BY version`,
      [id],
    );
    if (!rows.length) {
      return [
        toVersion({
          version: 1,
          kind: 'original',
          snapshot: alert.snapshot,
          changed: [],
          actor_email: null,
          created_at: alert.sent_at ?? alert.created_at,
          recipients: alert.recipients,
        }),
      ];
    }
    return rows.map(toVersion);
  }

  async find(id: string, version: number): Promise<VersionRow | null> {
    const [row] = await this.ds.query(`SELECT alert_id, version, kind, dispatched_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = $2`, [
      id,
      version,
    ]);
    return row ?? null;
  }

  /** A version's fan-out is done: `notified` deliveries were written for it (0 when a newer version or the alert's end made it moot). */
  async recordFanOut(id: string, version: number, notified: number): Promise<void> {
    await this.ds.query(
      `UPDATE alerts.alert_versions SET dispatched_at = coalesce(dispatched_at, now()), recipients = $3 WHERE alert_id = $1 AND version = $2`,
      [id, version, notified],
    );
  }

  /** Versions whose fan-out has not run `olderThanSeconds` after they were made (the job lost with a Redis). */
  async undispatched(olderThanSeconds: number, limit = 100): Promise<VersionRow[]> {
    return this.ds.query(
      `SELECT alert_id, version, kind, dispatched_at FROM alerts.alert_versions
       WHERE dispatched_at IS NULL AND kind <> 'original' AND created_at < now() - make_interval(secs => $1)
       ORDER BY created_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
  }

  /** The alert, locked for the change; 404 when unknown, 409 when it is not in effect (nor, where allowed, a draft). */
  private async lockInEffect(m: EntityManager, id: string, what: string, allowed: AlertRow['status'][] = ['active']): Promise<AlertRow> {
    const [row] = await m.query(`SELECT ${ALERT_COLUMNS_SQL} FROM alerts.alerts a WHERE a.id = $1 FOR UPDATE`, [id]);
    assertInEffect(row, what, allowed);
    return row;
  }

  /** Version 1, the alert as it was sent, written by the first change (before it). */
  private async keepOriginal(m: EntityManager, id: string) {
    await m.query(
      `INSERT INTO alerts.alert_versions (alert_id, version, kind, snapshot, actor_id, actor_email, created_at, dispatched_at, recipients)
       SELECT a.id, 1, 'original', ${SNAPSHOT_SQL}, a.created_by,
              (SELECT u.actor_email FROM alerts.alert_audit u WHERE u.alert_id = a.id AND u.action = 'sent' ORDER BY u.at LIMIT 1),
              coalesce(a.sent_at, a.created_at), a.dispatched_at, a.recipients
       FROM alerts.alerts a WHERE a.id = $1 AND a.version = 1
       ON CONFLICT (alert_id, version) DO NOTHING`,
      [id],
    );
  }

  /**
   * The alert's last change once its new version is written: the UPDATE's RETURNING ran before the version existed,
   * and the readers told of the change (alert:updated) are told what it changed.
   */
  private async lastChange(m: EntityManager, id: string): Promise<AlertRow['last_change']> {
    const [row] = await m.query(`SELECT ${lastChangeSql('a')} FROM alerts.alerts a WHERE a.id = $1`, [id]);
    return row?.last_change ?? null;
  }

  private async addVersion(m: EntityManager, id: string, kind: 'update' | 'all_clear', changed: AlertUpdateField[], actor: Actor) {
    await m.query(
      `INSERT INTO alerts.alert_versions (alert_id, version, kind, snapshot, changed, actor_id, actor_email)
       SELECT a.id, a.version, $2, ${SNAPSHOT_SQL}, $3, $4, $5 FROM alerts.alerts a WHERE a.id = $1`,
      [id, kind, changed, actor.id, actor.email ?? null],
    );
  }
}

interface Snapshot {
  title: string;
  message: string;
  severity: Severity;
  expires_at: string | null;
  location_name: string | null;
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  area_polygon?: string | null;
  area_parts?: AlertAreaPart[] | null;
  area_description?: string | null;
  sent_at?: string | null;
}

function toVersion(r: {
  version: number;
  kind: AlertVersion['kind'];
  snapshot: Snapshot;
  changed: AlertUpdateField[];
  actor_email: string | null;
  created_at: Date | string;
  recipients: number | null;
}): AlertVersion {
  const s = r.snapshot;
  return {
    version: r.version,
    kind: r.kind,
    title: s.title,
    message: s.message,
    severity: s.severity,
    expiresAt: iso(s.expires_at),
    locationName: s.location_name ?? null,
    lat: s.lat ?? null,
    lng: s.lng ?? null,
    radiusKm: s.radius_km ?? null,
    area: toContractArea({
      lat: s.lat ?? null,
      lng: s.lng ?? null,
      radius_km: s.radius_km ?? null,
      area_polygon: s.area_polygon ?? null,
      area_parts: s.area_parts ?? null,
      area_description: s.area_description ?? null,
    }),
    changed: r.changed ?? [],
    actorEmail: r.actor_email,
    at: iso(r.created_at)!,
    notified: r.recipients ?? null,
  };
}

/**
 * 404 when the alert is unknown, 409 when it is not in effect (nor, where allowed, a draft; or only a draft): what an
 * update, the all-clear (`what`: 'updated', 'given the all-clear') and the audience previews answer.
 */
export function assertInEffect(row: AlertRow | null | undefined, what: string, allowed: AlertRow['status'][] = ['active']): asserts row is AlertRow {
  if (!row) throw notFound('Alert', 'alert_not_found');
  if (!allowed.includes(row.status)) {
    const which = [allowed.includes('draft') && 'a draft', allowed.includes('active') && 'an alert in effect'].filter(Boolean).join(' or ');
    throw new AppError(409, 'invalid_alert_status', `Only ${which} can be ${what}; this one is ${row.status}`);
  }
}

/**
 * Whom the alert concerns after `changes`, as eligibility reads it (its severity, area and contact groups): what an
 * update's fan-out and its audience preview count. Refuses a radius for an alert with no circle, and an alert in
 * effect losing both its area and its groups (it would reach everyone: issue #38's rule that "everyone" is chosen
 * when sending, never fallen into).
 */
export function afterChanges(current: AlertRow, changes: AlertChanges): EligibilityAlert {
  const area = changes.area ?? {};
  if (area.radiusKm !== undefined && (current.area_polygon || current.area_parts?.length || current.lat === null))
    throw badRequest('A radius resizes a circle, and this alert has none: send its new area', 'invalid_area');
  const where = area.where;
  const groups = changes.groupIds ?? current.group_ids ?? [];
  const targeted = current.lat !== null || !!current.group_ids?.length;
  if (targeted && current.status !== 'draft' && (where ? where.lat : current.lat) === null && !groups.length) {
    throw badRequest(
      current.group_ids?.length
        ? 'An alert in effect keeps an area or contact groups: send its new area or groups instead of none'
        : 'An alert in effect keeps an area: send its new area instead of none',
      'area_required',
    );
  }
  return {
    severity: changes.severity ?? current.severity,
    category: current.category,
    lat: where ? where.lat : current.lat,
    lng: where ? where.lng : current.lng,
    radius_km: where ? where.radiusKm : (area.radiusKm ?? current.radius_km),
    area_polygon: where ? storedAreaColumns(where).area_polygon : (current.area_polygon ?? null),
    area_parts: where ? (where.parts ?? null) : (current.area_parts ?? null),
    group_ids: groups,
    source: current.source,
    created_by: current.created_by,
  };
}

/** Refuses (400 sms_too_long) an update after which the alert's SMS, in any of its languages, would be too long. */
export function assertUpdateFits(current: AlertRow, changes: AlertChanges) {
  if (!current.channels.includes('sms')) return;
  assertSmsFits({
    title: changes.title ?? current.title,
    message: changes.message ?? current.message,
    translations: changes.translations ?? current.translations ?? {},
  });
}

/**
 * The fields `changes` really changes in `current` (the area as one). Its contact groups are whom it targets with its
 * area, and count as its area here: AlertUpdateField has no field of their own.
 */
export function changedFields(current: AlertRow, changes: AlertChanges): AlertUpdateField[] {
  const changed: AlertUpdateField[] = [];
  if (changes.title !== undefined && changes.title !== current.title) changed.push('title');
  if (changes.message !== undefined && changes.message !== current.message) changed.push('message');
  if (changes.translations !== undefined && JSON.stringify(sortedKeys(changes.translations)) !== JSON.stringify(sortedKeys(current.translations ?? {})))
    changed.push('translations');
  if (changes.severity !== undefined && changes.severity !== current.severity) changed.push('severity');
  if (changes.expiresAt !== undefined && iso(changes.expiresAt) !== iso(current.expires_at)) changed.push('expiresAt');
  const a = changes.area;
  const sameWhere = (w: StoredArea) => {
    const next = storedAreaColumns(w);
    return JSON.stringify(toContractArea(current)) === JSON.stringify(toContractArea({ ...next, area_parts: w.parts ?? null }));
  };
  const sameGroups = (ids: readonly string[]) => JSON.stringify([...ids].sort()) === JSON.stringify([...(current.group_ids ?? [])].sort());
  if (
    (a &&
      ((a.where !== undefined && !sameWhere(a.where)) ||
        (a.radiusKm !== undefined && a.radiusKm !== current.radius_km) ||
        (a.locationName !== undefined && (a.locationName ?? null) !== current.location_name))) ||
    (changes.groupIds !== undefined && !sameGroups(changes.groupIds))
  )
    changed.push('area');
  return changed;
}

/**
 * Refuses an update made on an earlier state of the alert than it is in now: another admin's edit (or a feed's) came
 * first and would be lost unseen. A draft's edit must say which revision it was made on, since a draft's version never
 * moves; an update of an alert in effect may name its version, its revision, or neither (the API's earlier clients).
 */
export function assertSeenIsCurrent(current: AlertRow, seen: SeenState) {
  const draft = current.status === 'draft';
  if (seen.version !== undefined && seen.version !== current.version) {
    throw conflict(`This alert was changed meanwhile (it is now version ${current.version}); reload it and make your update again`, 'alert_update_conflict');
  }
  if (seen.revision === undefined && draft) {
    throw badRequest(
      "Send the draft's revision (from when you opened it) with your edit, so that a colleague's edit is never overwritten",
      'revision_required',
    );
  }
  if (seen.revision !== undefined && seen.revision !== current.revision) {
    throw conflict(
      draft
        ? 'This draft was changed by someone else since you opened it. Reload to see their changes.'
        : 'This alert was changed by someone else since you opened it. Reload to see their changes, then make your update again.',
      'alert_edited_elsewhere',
    );
  }
}

/** An object with its keys in order, so two translations maps compare by content. */
const sortedKeys = (o: object) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

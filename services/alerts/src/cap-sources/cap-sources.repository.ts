import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AlertTranslations, CapOrigin, CapSource, CapSourceMode, DeliveryChannel } from '@beacon/contracts';
import { StoredArea, storedAreaColumns } from '../alerts/alert-area';

export interface CapSourceRow {
  id: string;
  name: string;
  url: string;
  interval_seconds: number;
  categories: string[];
  severities: string[];
  mode: CapSourceMode;
  channels: DeliveryChannel[];
  enabled: boolean;
  next_fetch_at: Date;
  last_fetch_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  failures: number;
}

export interface CapSourceInput {
  name: string;
  url: string;
  intervalSeconds: number;
  categories: string[];
  severities: string[];
  mode: CapSourceMode;
  channels: DeliveryChannel[];
  enabled: boolean;
}

export interface TrackedMessage {
  alert_id: string | null;
  msg_type: string;
  outcome: string;
}

const COLUMNS = `id, name, url, interval_seconds, categories, severities, mode, channels, enabled, next_fetch_at, last_fetch_at, last_success_at, last_error, failures`;
const RECENT_REFUSALS = 10;

/** CAP sources, the messages taken from each (by sender and identifier), and the documents refused. */
@Injectable()
export class CapSourcesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async list(): Promise<CapSourceRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM alerts.cap_sources ORDER BY created_at, id`);
  }

  async find(id: string): Promise<CapSourceRow | null> {
    const [row] = await this.ds.query(`SELECT ${COLUMNS} FROM alerts.cap_sources WHERE id = $1`, [id]);
    return row ?? null;
  }

  async create(s: CapSourceInput, createdBy: string | null): Promise<CapSourceRow> {
    const [row] = await this.ds.query(
      `INSERT INTO alerts.cap_sources (name, url, interval_seconds, categories, severities, mode, channels, enabled, created_by)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING ${COLUMNS}`,
      [s.name, s.url, s.intervalSeconds, s.categories, s.severities, s.mode, s.channels, s.enabled, createdBy],
    );
    return row;
  }

  /** A changed URL or re-enabled source is fetched at once, its failures forgotten. */
  async update(id: string, s: CapSourceInput): Promise<CapSourceRow | null> {
    const [rows] = await this.ds.query(
      `UPDATE alerts.cap_sources c SET name = $2, url = $3, interval_seconds = $4, categories = $5, severities = $6, mode = $7, channels = $8,
         enabled = $9, updated_at = now(),
         next_fetch_at = CASE WHEN c.url <> $3 OR (NOT c.enabled AND $9) THEN now() ELSE c.next_fetch_at END,
         failures = CASE WHEN c.url <> $3 THEN 0 ELSE c.failures END
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, s.name, s.url, s.intervalSeconds, s.categories, s.severities, s.mode, s.channels, s.enabled],
    );
    return rows?.[0] ?? null;
  }

  async remove(id: string): Promise<boolean> {
    const [, count] = await this.ds.query(`DELETE FROM alerts.cap_sources WHERE id = $1`, [id]);
    return count > 0;
  }

  async due(limit: number): Promise<CapSourceRow[]> {
    return this.ds.query(`SELECT ${COLUMNS} FROM alerts.cap_sources WHERE enabled AND next_fetch_at <= now() ORDER BY next_fetch_at LIMIT $1`, [limit]);
  }

  async succeeded(id: string, intervalSeconds: number) {
    await this.ds.query(
      `UPDATE alerts.cap_sources SET last_fetch_at = now(), last_success_at = now(), last_error = NULL, failures = 0,
         next_fetch_at = now() + make_interval(secs => $2) WHERE id = $1`,
      [id, intervalSeconds],
    );
  }

  /** A failed fetch: backed off (the interval doubled per failure in a row, at most a day), or until the source's Retry-After. */
  async failed(id: string, error: string, retryAt: Date | null) {
    await this.ds.query(
      `UPDATE alerts.cap_sources SET last_fetch_at = now(), last_error = $2, failures = failures + 1,
         next_fetch_at = coalesce($3::timestamptz, now() + make_interval(secs => least(86400, interval_seconds * power(2, least(failures + 1, 16)))))
       WHERE id = $1`,
      [id, error.slice(0, 500), retryAt],
    );
  }

  async refuse(sourceId: string, url: string | null, reason: string) {
    await this.ds.query(`INSERT INTO alerts.cap_source_refusals (source_id, url, reason) VALUES ($1, $2, $3)`, [sourceId, url, reason.slice(0, 500)]);
  }

  async recentRefusals(sourceIds: string[]): Promise<Map<string, CapSource['health']['recentRefusals']>> {
    const rows: { source_id: string; url: string | null; reason: string; at: Date }[] = await this.ds.query(
      `SELECT source_id, url, reason, at FROM (
         SELECT r.*, row_number() OVER (PARTITION BY source_id ORDER BY at DESC, id DESC) AS n FROM alerts.cap_source_refusals r WHERE source_id = ANY($1)
       ) x WHERE n <= $2 ORDER BY at DESC, id DESC`,
      [sourceIds, RECENT_REFUSALS],
    );
    const out = new Map<string, CapSource['health']['recentRefusals']>();
    for (const r of rows) {
      const list = out.get(r.source_id) ?? [];
      list.push({ at: r.at.toISOString(), url: r.url, reason: r.reason });
      out.set(r.source_id, list);
    }
    return out;
  }

  async tracked(sourceId: string, sender: string, identifier: string): Promise<TrackedMessage | null> {
    const [row] = await this.ds.query(
      `SELECT alert_id, msg_type, outcome FROM alerts.cap_source_messages WHERE source_id = $1 AND sender = $2 AND identifier = $3`,
      [sourceId, sender, identifier],
    );
    return row ?? null;
  }

  /** A linked message already taken from this address: not fetched again. */
  async knownUrl(sourceId: string, url: string): Promise<boolean> {
    const rows = await this.ds.query(`SELECT 1 FROM alerts.cap_source_messages WHERE source_id = $1 AND url = $2 LIMIT 1`, [sourceId, url]);
    return rows.length > 0;
  }

  /** Records a message taken; false when it was already there (another poll took it first). */
  async track(m: {
    sourceId: string;
    sender: string;
    identifier: string;
    sent: string;
    msgType: string;
    url: string | null;
    alertId: string | null;
    outcome: string;
    xml: string;
  }): Promise<boolean> {
    const rows = await this.ds.query(
      `INSERT INTO alerts.cap_source_messages (source_id, sender, identifier, sent, msg_type, url, alert_id, outcome, xml)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT DO NOTHING RETURNING 1`,
      [m.sourceId, m.sender, m.identifier, m.sent, m.msgType, m.url, m.alertId, m.outcome, m.xml],
    );
    return rows.length > 0;
  }

  /** The original message's record of a Beacon alert made from CAP. */
  async origin(alertId: string): Promise<CapOrigin | null> {
    const [row] = await this.ds.query(
      `SELECT m.source_id, s.name, m.sender, m.identifier, m.sent, m.url FROM alerts.cap_source_messages m
       JOIN alerts.cap_sources s ON s.id = m.source_id
       WHERE m.alert_id = $1 AND m.msg_type = 'Alert' ORDER BY m.received_at LIMIT 1`,
      [alertId],
    );
    return row ? { sourceId: row.source_id, sourceName: row.name, sender: row.sender, identifier: row.identifier, sent: row.sent, url: row.url } : null;
  }

  async originalXml(alertId: string): Promise<string | null> {
    const [row] = await this.ds.query(`SELECT xml FROM alerts.cap_source_messages WHERE alert_id = $1 AND msg_type = 'Alert' ORDER BY received_at LIMIT 1`, [
      alertId,
    ]);
    return row?.xml ?? null;
  }

  /** A draft's content replaced by a later message (drafts have no versions: nobody was told). */
  async replaceDraft(
    alertId: string,
    a: {
      title: string;
      message: string;
      translations: AlertTranslations;
      severity: string;
      category: string;
      /** The new area (toAlertArea), or null to keep the draft's. */
      area: StoredArea | null;
      locationName: string | null;
      expiresAt: Date | null;
    },
  ) {
    const where = a.area ? storedAreaColumns(a.area) : null;
    const rows = await this.ds.query(
      `UPDATE alerts.alerts SET title = $2, message = $3, severity = $4, category = $5, location_name = $9, expires_at = $10, translations = $12::jsonb,
         lat = CASE WHEN $11 THEN $6::float8 ELSE lat END, lng = CASE WHEN $11 THEN $7::float8 ELSE lng END,
         radius_km = CASE WHEN $11 THEN $8::float8 ELSE radius_km END, area_polygon = CASE WHEN $11 THEN $13::polygon ELSE area_polygon END,
         area_parts = CASE WHEN $11 THEN $14::jsonb ELSE area_parts END, area_description = CASE WHEN $11 THEN $15::text ELSE area_description END,
         updated_at = now() WHERE id = $1 AND status = 'draft' RETURNING id`,
      [
        alertId,
        a.title,
        a.message,
        a.severity,
        a.category,
        where?.lat ?? null,
        where?.lng ?? null,
        where?.radius_km ?? null,
        a.locationName,
        a.expiresAt,
        where !== null,
        JSON.stringify(a.translations),
        where?.area_polygon ?? null,
        where?.area_parts ?? null,
        where?.area_description ?? null,
      ],
    );
    return rows.length > 0;
  }

  /** A message whose expiry passed ends the alert it concerns: its expiry is set to then; the expiry sweep does the rest. */
  async expireAt(alertId: string, at: Date) {
    await this.ds.query(`UPDATE alerts.alerts SET expires_at = $2, updated_at = now() WHERE id = $1 AND status IN ('draft','active')`, [alertId, at]);
  }
}

export function toCapSource(r: CapSourceRow, refusals: CapSource['health']['recentRefusals']): CapSource {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    intervalSeconds: r.interval_seconds,
    categories: r.categories,
    severities: r.severities,
    mode: r.mode,
    channels: r.channels,
    enabled: r.enabled,
    health: {
      state: !r.enabled ? 'disabled' : r.failures > 0 ? 'failing' : r.last_success_at ? 'ok' : 'never_fetched',
      lastFetchAt: r.last_fetch_at?.toISOString() ?? null,
      lastSuccessAt: r.last_success_at?.toISOString() ?? null,
      lastError: r.last_error,
      failures: r.failures,
      nextFetchAt: r.next_fetch_at.toISOString(),
      recentRefusals: refusals,
    },
  };
}

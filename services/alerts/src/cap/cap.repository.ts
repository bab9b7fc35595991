import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ALERT_COLUMNS_SQL, AlertRow, EFFECTIVE_STATUS_SQL, publicAlertSql } from '../alerts/alert.rows';

/** An alert as the public feeds show it: the row, and when it ended (cancelled or expired; null while in effect). */
export interface PublicAlertRow extends AlertRow {
  ended_at: Date | null;
  /** [version, when] of each version after the first (updates, the all-clear), oldest first. */
  revisions?: [number, string][];
}

/**
 * Only what went out to the public: sent by an admin or from an incident (never a test alert, which reaches only
 * the admin who asked), made active at some point (sent_at is set on the way to active, so a draft, even a
 * cancelled one, never shows), and with an area or for everyone: an alert to contact groups alone is private to their
 * members (issue #42). One with an area and groups is published with its area alone (capMessage never names groups).
 */
const PUBLISHED_SQL = `a.source IN ('admin','incident') AND a.sent_at IS NOT NULL AND ${publicAlertSql('a')}`;

/**
 * No cancelled_at column: a cancel is the alert's last status change, so updated_at holds it (the dispatcher's
 * roll-up may still touch it moments later if the cancel came mid-dispatch). An expiry ends at expires_at, whether
 * or not the sweep has marked the row yet.
 */
const ENDED_AT_SQL = `(CASE ${EFFECTIVE_STATUS_SQL} WHEN 'cancelled' THEN a.updated_at WHEN 'all_clear' THEN a.all_clear_at
  WHEN 'expired' THEN coalesce(a.expires_at, a.updated_at) END)`;

const REVISIONS_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_array(v.version, v.created_at) ORDER BY v.version), '[]'::jsonb)
  FROM alerts.alert_versions v WHERE v.alert_id = a.id AND v.version > 1) AS revisions`;

/** When the alert's latest message was sent (its cancel, its latest version, or the original). */
const LATEST_MESSAGE_AT_SQL = `coalesce(CASE WHEN a.status = 'cancelled' THEN a.ended_at END,
  (SELECT max(v.created_at) FROM alerts.alert_versions v WHERE v.alert_id = a.id AND v.version > 1), a.sent_at)`;

@Injectable()
export class CapRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Alerts in effect and those that ended within `endedWithinHours`, the most recently sent or cancelled first. */
  async feed(endedWithinHours: number, limit: number): Promise<PublicAlertRow[]> {
    return this.ds.query(
      `SELECT * FROM (
         SELECT ${ALERT_COLUMNS_SQL}, ${ENDED_AT_SQL} AS ended_at, ${REVISIONS_SQL} FROM alerts.alerts a WHERE ${PUBLISHED_SQL}
       ) a
       WHERE a.status = 'active' OR a.ended_at > now() - make_interval(hours => $1)
       ORDER BY ${LATEST_MESSAGE_AT_SQL} DESC, a.id DESC
       LIMIT $2`,
      [endedWithinHours, limit],
    );
  }

  async findPublished(id: string): Promise<PublicAlertRow | null> {
    const [row] = await this.ds.query(
      `SELECT ${ALERT_COLUMNS_SQL}, ${ENDED_AT_SQL} AS ended_at, ${REVISIONS_SQL} FROM alerts.alerts a WHERE a.id = $1 AND ${PUBLISHED_SQL}`,
      [id],
    );
    return row ?? null;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AlertVersion, DeliveryChannel, DeliveryMessageKind, DeliveryReceipt, DeliveryStatus } from '@beacon/contracts';
import { RecipientContact } from './contact-mask';
import { streamRows } from './cursor';
import { ALL_CLEAR_ROUND, DeliveryKind, revisionRound } from './deliveries.repository';

/** A delivery as the console's delivery list and the per-recipient report read it: the row, what it carried, whom it went to. */
export interface LedgerRow extends RecipientContact {
  id: string;
  user_id: string;
  channel: DeliveryChannel;
  status: DeliveryStatus | 'sending';
  attempts: number;
  error: string | null;
  last_error: string | null;
  not_before: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  created_at: Date;
  updated_at: Date;
  round: number;
  kind: DeliveryKind;
  fallback: boolean;
  /** What the provider's receipt said (issue #39), when it came, and the provider's reason; null while none came. */
  receipt: DeliveryReceipt | null;
  receipt_at: Date | null;
  receipt_reason: string | null;
  /** Only where asked for (the list): carried in a digest, or carrying others. */
  in_digest?: boolean;
}

/** When each of the alert's versions was made (alert_versions; none until its first update). */
export interface VersionTime {
  version: number;
  kind: AlertVersion['kind'];
  at: Date;
}

/**
 * The recipient's contact as of now (LEFT JOIN alerts.user_preferences p) and, for push, their browsers' User-Agents,
 * one that took this delivery first (push_accepted), then the latest registered.
 */
const CONTACT_COLUMNS = `p.email, p.phone_number,
  CASE WHEN d.channel = 'push' THEN (
    SELECT array_agg(s.user_agent ORDER BY s.id = ANY(coalesce(d.push_accepted, '{}')) DESC, s.registered_at DESC)
    FROM alerts.push_subscriptions s WHERE s.user_id = d.user_id) END AS browsers`;

const ROW_COLUMNS = `d.id, d.user_id, d.channel, d.status, d.attempts, d.error, d.last_error, d.not_before, d.sent_at, d.delivered_at, d.read_at,
  d.created_at, d.updated_at, d.round, d.kind, d.fallback, d.receipt, d.receipt_at, d.receipt_reason`;

/** What a delivery carried, in the contract's words: a fallback carries the alert, but was an operator's doing. */
export const messageKind = (r: Pick<LedgerRow, 'kind' | 'fallback'>): DeliveryMessageKind => (r.fallback ? 'fallback' : r.kind);

/**
 * The version of the alert a delivery carried. A version's own round says it (updates: revisionRound); the all-clear's
 * rows carry the all-clear's version. Rows of the first round, reminders and fallbacks carry the text the alert had
 * when they went out (the senders read the alert as it is then): the latest version made by the time they were sent,
 * or by their last change when they were not.
 */
export function versionOf(r: Pick<LedgerRow, 'round' | 'sent_at' | 'updated_at'>, versions: VersionTime[]): number {
  if (r.round > revisionRound(0) && r.round < ALL_CLEAR_ROUND) return r.round - revisionRound(0);
  if (r.round === ALL_CLEAR_ROUND) return versions.find((v) => v.kind === 'all_clear')?.version ?? versions.at(-1)?.version ?? 1;
  const at = new Date(r.sent_at ?? r.updated_at).getTime();
  let version = 1;
  for (const v of versions) if (v.at.getTime() <= at) version = Math.max(version, v.version);
  return version;
}

/** Reads an alert's deliveries with their recipients' contacts, for the delivery list (a page) and the report (all, streamed). */
@Injectable()
export class DeliveryLedgerRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async versions(alertId: string): Promise<VersionTime[]> {
    const rows = await this.ds.query(`SELECT version, kind, created_at AS at FROM alerts.alert_versions WHERE alert_id = $1 ORDER BY version`, [alertId]);
    return rows.map((r: VersionTime) => ({ ...r, at: new Date(r.at) }));
  }

  async page(
    alertId: string,
    f: { status?: DeliveryStatus; channel?: DeliveryChannel; offset: number; limit: number },
  ): Promise<{ rows: LedgerRow[]; total: number }> {
    const where = ['d.alert_id = $1'];
    const params: unknown[] = [alertId];
    if (f.channel) where.push(`d.channel = $${params.push(f.channel)}`);
    if (f.status) where.push(f.status === 'pending' ? `d.status IN ('pending','sending')` : `d.status = $${params.push(f.status)}`);
    const whereSql = where.join(' AND ');
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM alerts.alert_deliveries d WHERE ${whereSql}`, params);
    const rows: LedgerRow[] = await this.ds.query(
      `SELECT ${ROW_COLUMNS}, ${CONTACT_COLUMNS},
              (d.merged_into IS NOT NULL OR EXISTS (SELECT 1 FROM alerts.alert_deliveries m WHERE m.merged_into = d.id)) AS in_digest
       FROM alerts.alert_deliveries d LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
       WHERE ${whereSql}
       ORDER BY d.created_at, d.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    );
    return { rows, total };
  }

  /** Every delivery of the alert, person by person, in chunks from a cursor: a million rows never sit in memory. */
  stream(alertId: string, onRows: (rows: LedgerRow[]) => Promise<void> | void): Promise<void> {
    return streamRows<LedgerRow>(
      this.ds,
      `SELECT ${ROW_COLUMNS}, ${CONTACT_COLUMNS}
       FROM alerts.alert_deliveries d LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
       WHERE d.alert_id = $1 ORDER BY d.user_id, d.channel, d.round`,
      [alertId],
      onRows,
    );
  }
}

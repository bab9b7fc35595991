import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import {
  CHANNEL_LABELS,
  DELIVERY_MESSAGE_KIND_LABELS,
  DELIVERY_RECEIPT_LABELS,
  DELIVERY_STATUS_LABELS,
  historyStatus,
  LEVEL_LABELS,
  spreadsheetText,
  type AdminAlert,
  type AlertDeliveryRow,
  type DeliveryStatus,
  type Page,
} from '@beacon/contracts';
import { notFound } from '@beacon/common';
import { toAdminAlert } from './alert.rows';
import { AlertListFilter, AlertsRepository } from './alerts.repository';
import { DeliveriesQuery } from './dto/list-alerts.query';
import { toPage } from './page';
import { maskedContact } from '../deliveries/contact-mask';
import { DeliveryLedgerRepository, LedgerRow, messageKind, versionOf } from '../deliveries/delivery-ledger.repository';

/** Every value quoted, formula-safe (spreadsheetText), rows ended with CRLF. */
export function csvRows(rows: (string | number | null | undefined)[][]): string {
  return stringify(
    rows.map((row) => row.map(spreadsheetText)),
    { quoted: true, record_delimiter: 'windows' },
  );
}

export const RECIPIENT_REPORT_COLUMNS = [
  'Delivery',
  'User',
  'Recipient email',
  'Contact',
  'Channel',
  'Version',
  'Kind',
  'Status',
  'Attempts',
  'Last error',
  'Called off because',
  'Held until',
  'Sent at',
  'Delivered at',
  'Read at',
  // issue #39: what the provider's receipt said, when, and its reason ("Status" says Sent to provider until then)
  'Receipt',
  'Receipt at',
  'Receipt reason',
];

export const HISTORY_EXPORT_COLUMNS = [
  'Date',
  'Type',
  'Title',
  'Priority',
  'Channels',
  'Status',
  'Created by',
  'Send at',
  'Sent at',
  'Recipients',
  'Success rate',
  'Approval',
  'Sent without approval',
];

/** The second pair of eyes as the record reads it (issue #38): asked, approved or rejected, by whom, when, why. */
export function approvalText(a: Pick<AdminAlert, 'approval' | 'breakGlass'>): string {
  const p = a.approval;
  if (!p) return '';
  const asked = `asked by ${p.requestedByEmail ?? p.requestedBy ?? 'Beacon'} at ${p.requestedAt} (${p.reason})`;
  if (!p.decision) return `${a.breakGlass ? 'never approved: sent without approval' : 'awaiting approval'}, ${asked}`;
  const by = `${p.decision} by ${p.decidedByEmail ?? p.decidedBy ?? 'Beacon'} at ${p.decidedAt}`;
  return `${by}${p.note ? `: ${p.note}` : ''}; ${asked}`;
}

/** A break-glass send: who sent it without the approval it waited for, when, and their reason. */
export function breakGlassText(a: Pick<AdminAlert, 'breakGlass'>): string {
  const b = a.breakGlass;
  return b ? `by ${b.byEmail ?? b.by ?? 'Beacon'} at ${b.at}: ${b.reason}` : '';
}

/** Alerts read per query of the history export. */
const HISTORY_CHUNK = 500;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : '');

/** The console's status of a delivery: one being sent reads pending. */
const shownStatus = (r: LedgerRow): DeliveryStatus => (r.status === 'sending' ? 'pending' : r.status);

/** The status in words: a delivery the provider only accepted reads "Sent to provider", never "Delivered". */
const statusText = (r: LedgerRow): string => DELIVERY_STATUS_LABELS[shownStatus(r)];

/** The error of its last failed attempt, kept beside a later success; a failure recorded before last_error existed is its error. */
const lastError = (r: LedgerRow) => r.last_error ?? (r.status === 'failed' ? r.error : null);

/**
 * An alert's deliveries for its operators: the delivery list (a page, GET /api/alerts/:id/deliveries) and the
 * per-recipient report (every delivery as CSV, streamed from a cursor in chunks, formula-safe). Each names its
 * recipient by the contact the channel used, masked, and says what it carried: the version and the kind of message,
 * and what the provider's receipt said of it (issue #39). Why one was called off (a number that replied STOP, ...) is
 * its error, in the list and in the report's "Called off because".
 */
@Injectable()
export class DeliveryReportService {
  constructor(
    private readonly alerts: AlertsRepository,
    private readonly ledger: DeliveryLedgerRepository,
  ) {}

  async page(alertId: string, q: DeliveriesQuery): Promise<Page<AlertDeliveryRow>> {
    const versions = await this.versionsOf(alertId);
    const { rows, total } = await this.ledger.page(alertId, { status: q.status, channel: q.channel, offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
    const now = Date.now();
    const items = rows.map((d): AlertDeliveryRow => ({
      id: d.id,
      userId: d.user_id,
      channel: d.channel,
      status: shownStatus(d),
      attempts: d.attempts,
      error: d.error,
      heldUntil: d.not_before && d.not_before.getTime() > now ? d.not_before.toISOString() : null,
      sentAt: d.sent_at?.toISOString() ?? null,
      deliveredAt: d.delivered_at?.toISOString() ?? null,
      readAt: d.read_at?.toISOString() ?? null,
      createdAt: d.created_at.toISOString(),
      inDigest: !!d.in_digest,
      contact: maskedContact(d.channel, d),
      kind: messageKind(d),
      version: versionOf(d, versions),
      lastError: lastError(d),
      statusLabel: statusText(d),
      receipt: d.receipt,
      receiptAt: d.receipt_at?.toISOString() ?? null,
      receiptReason: d.receipt_reason,
    }));
    return toPage(items, total, q);
  }

  async write(alertId: string, out: (chunk: string) => void | Promise<void>) {
    const versions = await this.versionsOf(alertId);
    await out(csvRows([RECIPIENT_REPORT_COLUMNS]));
    await this.ledger.stream(alertId, (rows) =>
      out(
        csvRows(
          rows.map((r) => [
            r.id,
            r.user_id,
            r.email,
            maskedContact(r.channel, r),
            CHANNEL_LABELS[r.channel],
            versionOf(r, versions),
            DELIVERY_MESSAGE_KIND_LABELS[messageKind(r)],
            statusText(r),
            r.attempts,
            lastError(r),
            r.status === 'cancelled' ? r.error : '',
            r.status === 'pending' ? iso(r.not_before) : '',
            iso(r.sent_at),
            iso(r.delivered_at),
            iso(r.read_at),
            r.receipt ? DELIVERY_RECEIPT_LABELS[r.receipt] : '',
            iso(r.receipt_at),
            r.receipt_reason,
          ]),
        ),
      ),
    );
  }

  /** The alert's versions, read before anything is written: 404 for an unknown alert. */
  private async versionsOf(alertId: string) {
    if (!(await this.alerts.findById(alertId))) throw notFound('Alert', 'alert_not_found');
    return this.ledger.versions(alertId);
  }

  /**
   * The whole history matching the screen's filters (not one page), newest first, in the screen's columns and a
   * few more, read and written in chunks.
   */
  async writeHistory(filter: Omit<AlertListFilter, 'offset' | 'limit'>, out: (chunk: string) => void | Promise<void>) {
    await out(csvRows([HISTORY_EXPORT_COLUMNS]));
    for (let offset = 0; ; offset += HISTORY_CHUNK) {
      const { rows } = await this.alerts.list({ ...filter, offset, limit: HISTORY_CHUNK });
      await out(
        csvRows(
          rows
            .map(toAdminAlert)
            .map((a) => [
              a.createdAt,
              a.type,
              a.title,
              LEVEL_LABELS[a.severity],
              a.channels.map((c) => CHANNEL_LABELS[c]).join(', '),
              historyStatus(a),
              a.createdByEmail ?? a.createdBy,
              a.sendAt,
              a.sentAt,
              a.recipients,
              a.recipients && a.successRate !== null ? `${a.successRate}%` : '',
              approvalText(a),
              breakGlassText(a),
            ]),
        ),
      );
      if (rows.length < HISTORY_CHUNK) return;
    }
  }
}

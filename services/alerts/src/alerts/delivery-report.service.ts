import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { stringify } from 'csv-stringify/sync';
import { DataSource } from 'typeorm';
import { CHANNEL_LABELS, historyStatus, LEVEL_LABELS, spreadsheetText, type DeliveryChannel } from '@beacon/contracts';
import { notFound } from '@beacon/common';
import { toAdminAlert } from './alert.rows';
import { AlertListFilter, AlertsRepository } from './alerts.repository';
import { streamRows } from '../deliveries/cursor';

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
  'Email',
  'Phone',
  'Channel',
  'Status',
  'Attempts',
  'Last error',
  'Held until',
  'Sent at',
  'Delivered at',
  'Read at',
];

export const HISTORY_EXPORT_COLUMNS = ['Date', 'Type', 'Title', 'Priority', 'Channels', 'Status', 'Created by', 'Sent at', 'Recipients', 'Success rate'];

/** Alerts read per query of the history export. */
const HISTORY_CHUNK = 500;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : '');

/**
 * The per-recipient report of one alert: every delivery, whom it was for (the contact the user has on file now),
 * its status, attempts, last error and times. Streamed from a cursor in chunks, so a million rows never sit in
 * memory; formula-safe.
 */
@Injectable()
export class DeliveryReportService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly alerts: AlertsRepository,
  ) {}

  async write(alertId: string, out: (chunk: string) => void | Promise<void>) {
    if (!(await this.alerts.findById(alertId))) throw notFound('Alert', 'alert_not_found');
    await out(csvRows([RECIPIENT_REPORT_COLUMNS]));
    await streamRows<{
      id: string;
      user_id: string;
      email: string | null;
      phone_number: string | null;
      channel: DeliveryChannel;
      status: string;
      attempts: number;
      error: string | null;
      not_before: Date | null;
      sent_at: Date | null;
      delivered_at: Date | null;
      read_at: Date | null;
    }>(
      this.ds,
      `SELECT d.id, d.user_id, p.email, p.phone_number, d.channel, d.status, d.attempts, d.error, d.not_before, d.sent_at, d.delivered_at, d.read_at
       FROM alerts.alert_deliveries d LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
       WHERE d.alert_id = $1 ORDER BY d.user_id, d.channel`,
      [alertId],
      (rows) =>
        out(
          csvRows(
            rows.map((r) => [
              r.id,
              r.user_id,
              r.channel === 'email' ? r.email : '',
              r.channel === 'sms' ? r.phone_number : '',
              CHANNEL_LABELS[r.channel],
              r.status,
              r.attempts,
              r.error,
              r.status === 'pending' ? iso(r.not_before) : '',
              iso(r.sent_at),
              iso(r.delivered_at),
              iso(r.read_at),
            ]),
          ),
        ),
    );
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
              a.createdBy,
              a.sentAt,
              a.recipients,
              a.recipients ? `${a.successRate}%` : '',
            ]),
        ),
      );
      if (rows.length < HISTORY_CHUNK) return;
    }
  }
}

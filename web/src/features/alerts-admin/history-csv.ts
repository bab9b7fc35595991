import { CHANNEL_LABELS, historyStatus, LEVEL_LABELS, spreadsheetText, type AdminAlert } from '@beacon/contracts';
import { formatDateTime } from '@/common/time';

/**
 * The history export (spec part 2, section 9): the current page only, columns Date, Type, Title, Priority,
 * Channels, Status, every value quoted. A small writer rather than csv-stringify: its browser build is ESM
 * only (it cannot load under the web tests) and the quoting rules here are four lines.
 */
export const HISTORY_CSV_COLUMNS = ['Date', 'Type', 'Title', 'Priority', 'Channels', 'Status'] as const;

/** One quoted cell, inner quotes doubled, formula-safe (spreadsheetText). */
export function csvCell(value: string | number | null | undefined): string {
  return `"${spreadsheetText(value).replace(/"/g, '""')}"`;
}

/** Rows joined with CRLF (RFC 4180), every value quoted. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function historyCsv(alerts: readonly AdminAlert[]): string {
  return toCsv([
    HISTORY_CSV_COLUMNS,
    ...alerts.map((a) => [
      formatDateTime(a.createdAt),
      a.type,
      a.title,
      LEVEL_LABELS[a.severity] ?? a.severity,
      a.channels.map((c) => CHANNEL_LABELS[c] ?? c).join(', '),
      historyStatus(a),
    ]),
  ]);
}

/** alert-history-<ISO date>.csv, e.g. alert-history-2024-03-05.csv: the page shown, the spec's six columns. */
export function historyCsvFileName(now: Date = new Date()): string {
  return `alert-history-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * alert-history-all-<ISO date>.csv: the server's export of every alert the filters match, with its own columns. A name
 * of its own (issue #38), so the two files never overwrite or pass for each other in a downloads folder.
 */
export function historyExportFileName(now: Date = new Date()): string {
  return `alert-history-all-${now.toISOString().slice(0, 10)}.csv`;
}

/** Hands the file to the browser. A byte order mark makes spreadsheet apps read UTF-8 (accents, emoji). */
export function downloadCsv(fileName: string, csv: string) {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

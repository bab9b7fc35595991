import type { SyncCounts } from './source-sync.repository';

/** What one pull did with one list (cameras or events). */
export type KindReport =
  | ({ status: 'ok'; rejected: number; rejectedReasons: string[] } & SyncCounts)
  | { status: 'failed'; error: string; retryable: boolean }
  | { status: 'rate_limited'; retryAt: string; error: string }
  | { status: 'skipped'; error: string };

export interface IngestReport {
  source: string;
  reason: 'schedule' | 'manual';
  status: 'ok' | 'partial' | 'failed' | 'rate_limited';
  startedAt: string;
  finishedAt: string;
  cameras: KindReport;
  events: KindReport;
}

/** A pull worth retrying soon: the source was down, not merely rate limiting or sending junk. */
export function isRetryable(report: IngestReport): boolean {
  const kinds = [report.cameras, report.events];
  return !kinds.some((r) => r.status === 'rate_limited') && kinds.some((r) => r.status === 'failed' && r.retryable);
}

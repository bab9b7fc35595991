import type { ChangeEvent } from 'react';
import {
  ALERT_STATUS_LABELS,
  CHANNEL_LABELS,
  LEVEL_LABELS,
  SEVERITIES,
  SEVERITY_INFO,
  type AdminAlert,
  type ChannelCounts,
  type DeliveryChannel,
  type DeliveryLabel,
  type Severity,
} from '@beacon/contracts';
import { formatDateTime } from '@/common/time';

/** Small pieces the admin console's alert screens share: the priority badge, the delivery icon, counters, paging and per-channel progress. */

/** A settings form's last row: Discard, Save (while saving: "Saving..."), and the outcome of the last save. */
export function SaveRow({
  label,
  dirty,
  saving,
  onDiscard,
  result,
}: {
  label: string;
  dirty: boolean;
  saving: boolean;
  onDiscard: () => void;
  result: { ok: boolean; text: string } | null;
}) {
  return (
    <div className="row">
      <button type="button" className="btn btn-ghost" onClick={onDiscard} disabled={!dirty || saving}>
        Discard
      </button>
      <button type="submit" className="btn btn-primary" disabled={!dirty || saving}>
        {saving ? 'Saving...' : label}
      </button>
      {result && (
        <span className="small" role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </span>
      )}
    </div>
  );
}

/** A severity select's options, lowest first, by their labels. */
export function SeverityOptions() {
  return SEVERITIES.map((s) => (
    <option key={s} value={s}>
      {SEVERITY_INFO[s].label}
    </option>
  ));
}

/** The spec's priority badge (default MEDIUM), read from the severity so that a critical alert says CRITICAL, not HIGH. */
export function PriorityBadge({ severity }: { severity: Severity | null | undefined }) {
  const level: Severity = severity && LEVEL_LABELS[severity] ? severity : 'medium';
  return (
    <span className="badge" style={LEVEL_COLORS[level]}>
      {LEVEL_LABELS[level]}
    </span>
  );
}

/**
 * Spec: low blue, medium yellow, high red; text in the darker shade of each, so it reads on its light background
 * (WCAG AA). Critical, above high, is white on dark red.
 */
const LEVEL_COLORS: Record<Severity, { color: string; background: string }> = {
  low: { color: '#1e40af', background: '#dbeafe' },
  medium: { color: '#854d0e', background: '#fef9c3' },
  high: { color: '#991b1b', background: '#fee2e2' },
  critical: { color: '#ffffff', background: '#991b1b' },
};

/** Inline SVG paths (24 x 24, stroked): no icon font or emoji that a system might lack. */
const DELIVERY_PATHS: Record<DeliveryLabel, string> = {
  Pending: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 7v5l3 2',
  'All Delivered': 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM8 12.5l3 3l5-6',
  // an arrow leaving the circle: handed on, no receipt yet (never the tick, issue #39)
  'Sent to provider': 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM7.5 12h9M13 8.5l3.5 3.5l-3.5 3.5',
  Partial: 'M12 3L2 20h20L12 3zM12 10v4M12 17v.5',
  Failed: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM9 9l6 6M15 9l-6 6',
  'Not Sent': 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM8 12h8',
  'No Recipients': 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM6 6l12 12',
};

const DELIVERY_COLORS: Record<DeliveryLabel, string> = {
  Pending: '#6b7280',
  'All Delivered': '#16a34a',
  'Sent to provider': '#2563eb',
  Partial: '#ca8a04',
  Failed: '#dc2626',
  'Not Sent': '#6b7280',
  'No Recipients': '#b45309',
};

/**
 * Grey clock Pending, green tick All Delivered (every success has a receipt), blue arrow Sent to provider (some were
 * only accepted), yellow warning Partial, red cross Failed, grey dash Not Sent, amber slash No Recipients.
 * Its class names the label: delivery-all-delivered, delivery-sent-to-provider ...
 */
export function DeliveryIcon({ label, withText = false }: { label: DeliveryLabel; withText?: boolean }) {
  return (
    <span className={`delivery-icon delivery-${label.toLowerCase().replace(/ /g, '-')}`} title={label}>
      <svg
        aria-hidden="true"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        fill="none"
        stroke={DELIVERY_COLORS[label]}
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={DELIVERY_PATHS[label]} />
      </svg>
      {withText ? <span>{label}</span> : <span className="visually-hidden">{label}</span>}
    </span>
  );
}

export function CharCounter({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <span id={id} className={`char-counter ${length > max ? 'over' : ''}`} aria-live="polite">
      {length}/{max}
    </span>
  );
}

interface CountedFieldProps {
  id: string;
  label: string;
  value: string;
  max: number;
  error?: string;
  onChange: (value: string) => void;
  /** A five-row textarea instead of a one-line input. */
  multiline?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
}

/** A text field with its length counter beside the label and its error under it (title and message of an alert). */
export function CountedField({ id, label, value, max, error, onChange, multiline = false, placeholder, autoFocus }: CountedFieldProps) {
  const control = {
    id,
    value,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value),
    'aria-invalid': Boolean(error),
    'aria-describedby': `${id}-count${error ? ` ${id}-error` : ''}`,
    placeholder,
    autoFocus,
  };
  return (
    <div className="field">
      <div className="row-between">
        <label htmlFor={id}>{label}</label>
        <CharCounter id={`${id}-count`} length={value.length} max={max} />
      </div>
      {multiline ? <textarea rows={5} {...control} /> : <input {...control} />}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Previous / "Showing page X of Y" / Next under a paged list; nothing when there is one page.
 * `page` is the page asked for (it drives the buttons), `shown` what the server last answered.
 */
export function Pager({
  label = 'Pages',
  page,
  shown,
  onPage,
}: {
  label?: string;
  page: number;
  shown: { page: number; totalPages: number };
  onPage: (page: number) => void;
}) {
  if (shown.totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span>
        Showing page {shown.page} of {shown.totalPages}
      </span>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onPage(page + 1)} disabled={page >= shown.totalPages}>
        Next
      </button>
    </nav>
  );
}

export function channelList(channels: readonly DeliveryChannel[]) {
  return channels.map((c) => CHANNEL_LABELS[c] ?? c).join(', ');
}

/** Said beside a channel's counts when its provider, as configured, sends no receipts: its messages stay "sent" for good. */
export const NO_RECEIPTS = 'no receipts from this provider';

/**
 * One channel's deliveries as a stacked bar (delivered and read, sent, failed, pending) with its counts. `sent` is
 * only what a provider accepted ("Sent to provider"); "Delivered" counts receipts (issue #39). `receipts` false: the
 * channel's provider sends none, said beside the counts. Its value is the share of deliveries that have an outcome,
 * so the bar fills as the dispatch runs.
 */
export function ChannelProgress({
  channel,
  counts,
  alertTitle,
  receipts,
}: {
  channel: DeliveryChannel;
  counts: ChannelCounts;
  alertTitle: string;
  receipts?: boolean;
}) {
  const pending = counts.pending;
  const held = counts.held ?? 0;
  const retrying = counts.retrying ?? 0;
  const total = counts.pending + counts.sent + counts.delivered + counts.failed + counts.read + counts.cancelled;
  const done = total - pending;
  const pct = (n: number) => (total === 0 ? 0 : (n / total) * 100);
  const label = CHANNEL_LABELS[channel] ?? channel;
  return (
    <div className="channel-progress" data-channel={channel}>
      <div className="row-between small">
        <strong>{label}</strong>
        <span className="muted">
          {total === 0 ? 'No deliveries on this channel' : `${done} of ${total} processed`}
          {/* Held ones wait for recipients' quiet hours or digests: pending, but not stuck. */}
          {held > 0 && (
            <>
              {' '}
              · <span>{held} held</span>
            </>
          )}
          {/* Retrying ones failed for now and wait for their next attempt: pending, but not on their way. */}
          {retrying > 0 && (
            <>
              {' '}
              · <span className="retrying">{retrying} retrying</span>
            </>
          )}
        </span>
      </div>
      <div
        className="progress stacked"
        role="progressbar"
        aria-label={`${label} delivery progress for ${alertTitle}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} processed`}
      >
        <div className="seg seg-delivered" style={{ width: `${pct(counts.delivered + counts.read)}%` }} />
        <div className="seg seg-sent" style={{ width: `${pct(counts.sent)}%` }} />
        <div className="seg seg-failed" style={{ width: `${pct(counts.failed)}%` }} />
        <div className="seg seg-cancelled" style={{ width: `${pct(counts.cancelled)}%` }} />
      </div>
      <dl className="counts small" aria-label={`${label} counts`} data-testid={`counts-${channel}`}>
        <div>
          <dt>Pending</dt>
          <dd>{pending}</dd>
        </div>
        <div data-count="sent">
          <dt>Sent to provider</dt>
          <dd>{counts.sent}</dd>
        </div>
        <div data-count="delivered">
          <dt>Delivered</dt>
          <dd>{counts.delivered}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{counts.failed}</dd>
        </div>
        <div>
          <dt>Read</dt>
          <dd>{counts.read}</dd>
        </div>
        {counts.cancelled > 0 && (
          <div>
            <dt>Cancelled</dt>
            <dd>{counts.cancelled}</dd>
          </div>
        )}
        {receipts === false && (
          <div className="no-receipts">
            <dt className="visually-hidden">Receipts</dt>
            <dd>{NO_RECEIPTS}</dd>
          </div>
        )}
      </dl>
    </div>
  );
}

/** Before it goes out (a draft, scheduled, awaiting approval): no "Sent", no delivery label, no success rate (issue #38). */
export const notSentYet = (a: Pick<AdminAlert, 'status'>): boolean => a.status === 'draft' || a.status === 'scheduled' || a.status === 'pending_approval';

/** Deliveries that failed for now and wait for their next attempt, over every channel: shown apart from the rate. */
export const retryingCount = (a: Pick<AdminAlert, 'summary'>): number => Object.values(a.summary).reduce((n, c) => n + (c?.retrying ?? 0), 0);

/**
 * An alert's totals in one line, true to where it stands: "Draft: not sent.", "Scheduled for …", "Awaiting approval…",
 * "Cancelled before it went out."; once sent, "Recipients: 12 · Success rate: 75% · 2 retrying" (no rate while nothing
 * was tried, rather than 0%).
 */
export function totalsText(a: AdminAlert): string {
  if (a.status === 'draft') return 'Draft: not sent.';
  if (a.status === 'scheduled') return `Scheduled for ${formatDateTime(a.sendAt)} (your time): not sent yet.`;
  if (a.status === 'pending_approval') return 'Awaiting approval: not sent yet.';
  if (a.sentAt === null) return `${ALERT_STATUS_LABELS[a.status]} before it went out: not sent.`;
  const retrying = retryingCount(a);
  const tried = Object.values(a.summary).some((c) => !!c && c.sent + c.delivered + c.read + c.failed + (c.retrying ?? 0) > 0);
  const rate = a.successRate === null || !tried ? '—' : `${a.successRate}%`;
  return `Recipients: ${a.recipients ?? '—'} · Success rate: ${rate}${retrying > 0 ? ` · ${retrying} retrying` : ''}`;
}

import {
  CATEGORY_LABELS, CHANNEL_LABELS, DELIVERY_LABEL_STYLES, PRIORITY_STYLES, SEVERITY_STYLES,
  type AlertCategory, type ChannelCounts, type DeliveryChannel, type DeliveryLabel, type Priority, type Severity,
} from '@beacon/contracts';

/** Small pieces the alert screens share: badges, the delivery icon, counters and per-channel progress. */

export function PriorityBadge({ priority }: { priority: Priority | null | undefined }) {
  // Spec: the priority badge defaults to MEDIUM.
  const p: Priority = priority && PRIORITY_STYLES[priority] ? priority : 'medium';
  const style = PRIORITY_STYLES[p];
  return (
    <span className="badge" style={{ color: darker(p), background: style.background }}>
      {style.label}
    </span>
  );
}

// PRIORITY_STYLES' text colours are for icons; on their light backgrounds text needs darker shades (WCAG AA).
const darker = (p: Priority) => ({ low: '#1e40af', medium: '#854d0e', high: '#991b1b' })[p];

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`badge badge-${severity}`}>{SEVERITY_STYLES[severity]?.label ?? severity}</span>;
}

export function CategoryLabel({ category }: { category: AlertCategory }) {
  return <>{CATEGORY_LABELS[category] ?? category}</>;
}

/** Inline SVG paths (24 x 24, stroked): no icon font or emoji that a system might lack. */
const DELIVERY_PATHS: Record<DeliveryLabel, string> = {
  Pending: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 7v5l3 2',
  'All Delivered': 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM8 12.5l3 3l5-6',
  Partial: 'M12 3L2 20h20L12 3zM12 10v4M12 17v.5',
  Failed: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM9 9l6 6M15 9l-6 6',
};

/** Grey clock Pending, green tick All Delivered, yellow warning Partial, red cross Failed. */
export function DeliveryIcon({ label, withText = false }: { label: DeliveryLabel; withText?: boolean }) {
  const style = DELIVERY_LABEL_STYLES[label];
  return (
    <span className={`delivery-icon delivery-${label.toLowerCase().replace(' ', '-')}`} title={label}>
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke={style.color} strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
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

export function channelList(channels: readonly DeliveryChannel[]) {
  return channels.map((c) => CHANNEL_LABELS[c] ?? c).join(', ');
}

/**
 * One channel's deliveries as a stacked bar (delivered and read, sent, failed, pending) with its counts.
 * Its value is the share of deliveries that have an outcome, so the bar fills as the dispatch runs.
 */
export function ChannelProgress({ channel, counts, alertTitle }: { channel: DeliveryChannel; counts: ChannelCounts; alertTitle: string }) {
  const pending = counts.pending;
  const total = counts.pending + counts.sent + counts.delivered + counts.failed + counts.read + counts.cancelled;
  const done = total - pending;
  const pct = (n: number) => (total === 0 ? 0 : (n / total) * 100);
  const label = CHANNEL_LABELS[channel] ?? channel;
  return (
    <div className="channel-progress" data-channel={channel}>
      <div className="row-between small">
        <strong>{label}</strong>
        <span className="muted">{total === 0 ? 'No deliveries on this channel' : `${done} of ${total} processed`}</span>
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
      <dl className="counts small" aria-label={`${label} counts`}>
        <div><dt>Pending</dt><dd>{pending}</dd></div>
        <div><dt>Sent</dt><dd>{counts.sent}</dd></div>
        <div><dt>Delivered</dt><dd>{counts.delivered}</dd></div>
        <div><dt>Failed</dt><dd>{counts.failed}</dd></div>
        <div><dt>Read</dt><dd>{counts.read}</dd></div>
        {counts.cancelled > 0 && <div><dt>Cancelled</dt><dd>{counts.cancelled}</dd></div>}
      </dl>
    </div>
  );
}

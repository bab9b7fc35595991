import { useEffect, useId, useMemo, useState } from 'react';
import {
  CHANNEL_LABELS,
  OPERATIONS_BUCKET_SECONDS,
  OPERATIONS_CHART_MINUTES,
  type AdminAlert,
  type AlertOperations,
  type ChannelCounts,
  type OperationsBucket,
} from '@beacon/contracts';
import { formatDateTime } from '@/common/time';
import { alertChannels } from './AlertDeliverySummary';
import { useAlertOperationsQuery } from './alerts-admin.api';
import { useFallbackPolling } from './live';
import { useChannelReceipts } from './ChannelHealthPanel';
import { NO_RECEIPTS } from './ui';
import './operations.css';

const NUMBER = new Intl.NumberFormat('en-US');
const RATE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** "45 s", "3 min 20 s", "2 h 5 min": a wait or a remaining time, to the second below ten minutes. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  const m = Math.round((s % 3600) / 60);
  return m ? `${Math.floor(s / 3600)} h ${m} min` : `${Math.floor(s / 3600)} h`;
}

/** The server's clock now, from the view's `at` and the time it was received: relative times hold under clock skew. */
function useServerNow(ops: AlertOperations | undefined): number | null {
  const received = useMemo(() => (ops ? { server: Date.parse(ops.at), local: Date.now() } : null), [ops]);
  const [, tick] = useState(0);
  const counting = !!ops && Object.values(ops.channels).some((c) => c?.nextAttemptAt);
  useEffect(() => {
    if (!counting) return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [counting]);
  return received ? received.server + (Date.now() - received.local) : null;
}

function retryText(retrying: number, nextAttemptAt: string | null, serverNow: number | null): string {
  if (retrying === 0) return 'None';
  if (!nextAttemptAt || serverNow === null) return NUMBER.format(retrying);
  const wait = (Date.parse(nextAttemptAt) - serverNow) / 1000;
  return `${NUMBER.format(retrying)} · ${wait > 0.5 ? `next attempt in ${durationText(wait)}` : 'trying again now'}`;
}

/**
 * What receipts say of a channel so far: "1 delivered · 2 sent to provider, no receipt yet"; a channel whose provider
 * sends none says so, and never "delivered" (issue #39).
 */
function receiptText(c: ChannelCounts | undefined, receipts: boolean | undefined): string {
  const sent = c?.sent ?? 0;
  const delivered = (c?.delivered ?? 0) + (c?.read ?? 0);
  if (receipts === false) return `${NUMBER.format(sent)} sent to provider · ${NO_RECEIPTS}`;
  return sent > 0 ? `${NUMBER.format(delivered)} delivered · ${NUMBER.format(sent)} sent to provider, no receipt yet` : `${NUMBER.format(delivered)} delivered`;
}

/**
 * The live operations view of an alert that went out: per channel its pace, when it will be done, what waits for a
 * retry (and when) and what receipts say; the failures by reason as they happen; and the outcomes of the first minutes
 * as a chart. Read again on the alert's progress events; the last state stays on screen, marked stale, when a read
 * fails.
 */
export function AlertOperationsPanel({ alert }: { alert: AdminAlert }) {
  const id = useId();
  const going = alert.status === 'active' && alert.deliveryLabel === 'Pending';
  const polling = useFallbackPolling(going);
  const query = useAlertOperationsQuery(alert.id, { skip: !alert.recipients, pollingInterval: polling });
  const ops = query.data?.alertId === alert.id ? query.data : undefined;
  const serverNow = useServerNow(ops);
  const receipts = useChannelReceipts();
  if (!alert.recipients) return null;
  const channels = alertChannels(alert).filter((c) => ops?.channels[c]);

  return (
    <section className="card operations" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Live operations</h2>
      {query.error !== undefined && ops && (
        <p className="notice" role="status">
          Showing the last known state (stale since {new Date(query.fulfilledTimeStamp ?? Date.now()).toLocaleTimeString()}); retrying…
        </p>
      )}
      {!ops ? (
        <p className="muted">{query.error !== undefined ? 'Failed to load the delivery operations.' : 'Loading…'}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Pace, retries and holds by channel</caption>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Pace</th>
                  <th scope="col">Done in</th>
                  <th scope="col">Waiting for a retry</th>
                  <th scope="col">Held until later</th>
                  <th scope="col">Receipts</th>
                </tr>
              </thead>
              <tbody>
                {channels.map((c) => {
                  const o = ops.channels[c]!;
                  return (
                    <tr key={c} data-channel={c}>
                      <th scope="row">{CHANNEL_LABELS[c]}</th>
                      <td>{o.ratePerSecond > 0 ? `${RATE.format(o.ratePerSecond)} per second` : '—'}</td>
                      <td>{o.etaSeconds !== null ? `about ${durationText(o.etaSeconds)}` : '—'}</td>
                      <td>{retryText(o.retrying, o.nextAttemptAt, serverNow)}</td>
                      <td>{o.held === 0 ? 'None' : `${NUMBER.format(o.held)}${o.heldUntil ? ` · first at ${formatDateTime(o.heldUntil)}` : ''}`}</td>
                      <td>{receiptText(alert.summary[c], receipts[c])}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <h3>Failures</h3>
          {ops.failures.length === 0 ? (
            <p className="muted">No failures so far.</p>
          ) : (
            <ul className="failure-reasons" aria-label="Failures by reason">
              {ops.failures.map((f) => (
                <li key={`${f.channel}|${f.reason}`}>
                  <strong>{CHANNEL_LABELS[f.channel]}</strong>
                  {f.failed > 0 && <span className="badge badge-failed">{NUMBER.format(f.failed)} failed</span>}
                  {f.retrying > 0 && <span className="badge badge-retrying">{NUMBER.format(f.retrying)} to be retried</span>}
                  <span className="reason">{f.reason}</span>
                </li>
              ))}
            </ul>
          )}
          <OutcomesChart timeline={ops.timeline} dispatchedAt={ops.dispatchedAt} />
        </>
      )}
    </section>
  );
}

/** Outcomes over the first minutes of the dispatch, all channels together, as stacked bars per bucket. */
export function OutcomesChart({ timeline, dispatchedAt }: { timeline: OperationsBucket[]; dispatchedAt: string | null }) {
  const id = useId();
  if (!dispatchedAt || timeline.length === 0) return null;
  const start = Date.parse(dispatchedAt);
  const bucketMs = OPERATIONS_BUCKET_SECONDS * 1000;
  const first = Math.floor(start / bucketMs) * bucketMs;
  const last = Math.max(...timeline.map((b) => Date.parse(b.at)));
  const count = Math.min(Math.floor((OPERATIONS_CHART_MINUTES * 60_000) / bucketMs), Math.max(12, Math.floor((last - first) / bucketMs) + 1));
  const bars = Array.from({ length: count }, () => ({ succeeded: 0, failed: 0, retried: 0 }));
  for (const b of timeline) {
    const i = Math.floor((Date.parse(b.at) - first) / bucketMs);
    if (i < 0 || i >= count) continue;
    bars[i].succeeded += b.succeeded;
    bars[i].failed += b.failed;
    bars[i].retried += b.retried;
  }
  const total = bars.reduce((t, b) => ({ succeeded: t.succeeded + b.succeeded, failed: t.failed + b.failed, retried: t.retried + b.retried }), {
    succeeded: 0,
    failed: 0,
    retried: 0,
  });
  const max = Math.max(1, ...bars.map((b) => b.succeeded + b.failed + b.retried));
  const width = 100 / count;
  const minutes = Math.round((count * OPERATIONS_BUCKET_SECONDS) / 60);
  // "sent": handed to the provider, which is all a send's outcome knows; delivery is the receipts' (issue #39)
  const summary = `Outcomes in the first ${minutes === 1 ? 'minute' : `${minutes} minutes`}: ${NUMBER.format(total.succeeded)} sent to provider, ${NUMBER.format(total.retried)} failed and retried, ${NUMBER.format(total.failed)} failed for good.`;
  return (
    <figure className="outcomes-chart" aria-labelledby={`${id}-caption`}>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={summary}>
        {bars.map((b, i) => {
          const h = (n: number) => (n / max) * 40;
          const s = h(b.succeeded);
          const r = h(b.retried);
          const f = h(b.failed);
          return (
            <g key={i}>
              <rect className="bar-succeeded" x={i * width} width={width * 0.85} y={40 - s} height={s} />
              <rect className="bar-retried" x={i * width} width={width * 0.85} y={40 - s - r} height={r} />
              <rect className="bar-failed" x={i * width} width={width * 0.85} y={40 - s - r - f} height={f} />
            </g>
          );
        })}
      </svg>
      <figcaption id={`${id}-caption`} className="small">
        {summary} Each bar is {OPERATIONS_BUCKET_SECONDS} seconds.{' '}
        <span className="legend">
          <span className="key key-succeeded" aria-hidden="true" /> sent to provider <span className="key key-retried" aria-hidden="true" /> failed, retried{' '}
          <span className="key key-failed" aria-hidden="true" /> failed
        </span>
      </figcaption>
    </figure>
  );
}

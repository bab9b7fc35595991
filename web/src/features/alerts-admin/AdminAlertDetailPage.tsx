import { useEffect, useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { Link, useParams } from 'react-router-dom';
import {
  ALERT_STATUS_LABELS,
  CATEGORY_LABELS,
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  DELIVERY_MESSAGE_KIND_LABELS,
  DELIVERY_RECEIPT_LABELS,
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUSES,
  SEVERITY_INFO,
  type AdminAlert,
  type AlertDeliveryRow,
  type DeliveryChannel,
  type DeliveryStatus,
} from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { AlertAreaMap, areaText } from '@/features/alerts';
import { CsvDownloadButton } from './CsvDownloadButton';
import { formatDateTime } from '@/common/time';
import { useNow } from '@/common/useNow';
import { adminAlertsApi, useAlertDeliveriesQuery, useGetAlertQuery } from './alerts-admin.api';
import { SentAlertCard } from './AdminAlertsPage';
import { isFinished } from './QuickSendPage';
import { AlertAudit } from './AlertAudit';
import { AlertDeliverySummary } from './AlertDeliverySummary';
import { AlertResponsesCard } from './AlertResponses';
import { DeliveryActions } from './DeliveryActions';
import { FALLBACK_POLL_MS, useFallbackPolling, useLiveAdminAlerts, useWatchAlerts } from './live';
import { Pager } from './ui';
import { AlertOperationsPanel } from './AlertOperations';
import { AlertLifecycle } from './AlertLifecycle';
import { CapOriginLine } from './CapOriginLine';
import { ApprovalPanel } from './ApprovalPanel';
import '@/features/alerts/alerts.css';
import './providers.css';
import { AlertTranslationsList } from './AlertLanguages';
import { ReachMap } from './ReachMap';
import { GROUP_WORDS, groupText } from './target-groups';

/** How often a stale page reads the alert again. */
export const STALE_RETRY_MS = FALLBACK_POLL_MS;

const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The page's line under its title, true to where the alert stands: never "Sent" for one that did not go out (issue #38). */
export function whenText(a: AdminAlert): string {
  switch (a.status) {
    case 'draft':
      return `Draft, created ${formatDateTime(a.createdAt)}: not sent`;
    case 'scheduled':
      return `Scheduled for ${formatDateTime(a.sendAt)} (your time)`;
    case 'pending_approval':
      return `Awaiting approval since ${formatDateTime(a.approval?.requestedAt ?? a.updatedAt)}: not sent`;
    default:
      return a.sentAt ? `Sent ${formatDateTime(a.sentAt)}` : `${ALERT_STATUS_LABELS[a.status]} before it went out (created ${formatDateTime(a.createdAt)})`;
  }
}

/** Who wrote the alert: their e-mail; Beacon itself for a CAP source's or a test's. */
export const authorText = (a: AdminAlert): string => a.createdByEmail ?? (a.createdBy ? `user ${a.createdBy.slice(0, 8)}` : 'Beacon');

/**
 * /admin/alerts/:id: one alert, its live progress, what its deliveries came to and what people answered, what can
 * be done about failures, its audit trail and its deliveries, paged and filterable. A failed read after the alert
 * was shown keeps the last state on screen, says since when it is stale, and reads again until it succeeds.
 */
export function AdminAlertDetailPage() {
  const { id = '' } = useParams();
  useLiveAdminAlerts();
  useWatchAlerts(id ? [id] : []);
  const now = useNow();
  // The cache entry as it stands decides how often to read it: while the socket is down, as the other live screens;
  // once a read has failed with a state on screen, until one succeeds again.
  const cached = adminAlertsApi.endpoints.getAlert.useQueryState(id, { skip: !id });
  // A failed read leaves its error on the entry through the next attempt (pending), until one succeeds.
  const stale = cached.error !== undefined && cached.data?.id === id;
  const fallbackPolling = useFallbackPolling(cached.data?.id === id && cached.data.status === 'active');
  const alert = useGetAlertQuery(id, { skip: !id, pollingInterval: stale ? STALE_RETRY_MS : fallbackPolling });
  // `data` is the last result of any id: the one of another alert (navigating between them) is not this alert's.
  const a = alert.data?.id === id ? alert.data : undefined;
  const intl = useIntl();

  return (
    <section className="page" aria-labelledby="alert-detail-title">
      <header className="page-header">
        <div>
          <h1 id="alert-detail-title">Alert Details</h1>
          <p className="muted">{a ? whenText(a) : ' '}</p>
        </div>
        <div className="row">
          {a && (
            <CsvDownloadButton
              url={`/api/alerts/${encodeURIComponent(a.id)}/deliveries.csv`}
              fileName={`alert-${a.id}-recipients.csv`}
              label="Recipient report (CSV)"
            />
          )}
          <Link to="/admin/history" className="btn btn-outline">
            Back to History
          </Link>
          <Link to="/admin/alerts" className="btn btn-outline">
            Back to Alerts
          </Link>
        </div>
      </header>
      {alert.isLoading || (!a && alert.isFetching) ? (
        <Spinner label="Loading alert" />
      ) : !a ? (
        <div className="empty-state" role="alert">
          <p>{(alert.error as { statusCode?: number } | undefined)?.statusCode === 404 ? 'This alert does not exist.' : 'Failed to load the alert.'}</p>
          <Link to="/admin/history" className="btn btn-outline">
            Back to History
          </Link>
        </div>
      ) : (
        <div className="stack">
          {alert.error !== undefined && (
            <p className="notice" role="status">
              Showing the last known state (stale since {alert.fulfilledTimeStamp ? CLOCK.format(alert.fulfilledTimeStamp) : 'the last read'}); retrying…
            </p>
          )}
          <ul className="alert-list" aria-label="Delivery progress">
            <SentAlertCard alert={a} now={now} />
          </ul>
          <ApprovalPanel alert={a} />
          <AlertDeliverySummary alert={a} />
          <AlertOperationsPanel alert={a} />
          <AlertResponsesCard responses={a.responses} />
          <ReachMap alert={a} />
          <DeliveryActions alert={a} />
          <AlertLifecycle alert={a} />
          <section className="card" aria-labelledby="alert-content-title">
            <h2 id="alert-content-title">Content</h2>
            <dl className="review">
              <dt>Message</dt>
              <dd className="pre-wrap">{a.message}</dd>
              <dt>Created by</dt>
              <dd>{authorText(a)}</dd>
              <dt>Severity</dt>
              <dd>{SEVERITY_INFO[a.severity].label}</dd>
              <dt>Category</dt>
              <dd>{CATEGORY_LABELS[a.category]}</dd>
              <dt>Location</dt>
              <dd>{a.locationName ?? '—'}</dd>
              <dt>Area</dt>
              {/* No area and contact groups: the groups' members only, not "everywhere" (issue #42). */}
              <dd>{!a.area && a.groups.length ? intl.formatMessage(GROUP_WORDS.noArea) : areaText(a)}</dd>
              {a.groups.length > 0 && (
                <>
                  <dt className="group-term">{intl.formatMessage(GROUP_WORDS.title)}</dt>
                  <dd>
                    <ul className="group-names" aria-label={intl.formatMessage(GROUP_WORDS.title)}>
                      {a.groups.map((g) => (
                        <li key={g.id}>{groupText(intl, g)}</li>
                      ))}
                    </ul>
                  </dd>
                </>
              )}
              <dt>Expires</dt>
              <dd>{a.expiresAt ? formatDateTime(a.expiresAt) : 'Never'}</dd>
              <dt>Source</dt>
              <dd>
                {a.source === 'cap' ? (
                  <CapOriginLine alert={a} />
                ) : a.source === 'incident' ? (
                  'Verified incident'
                ) : a.source === 'test' ? (
                  'Test alert'
                ) : (
                  'Admin'
                )}
              </dd>
            </dl>
            <AlertAreaMap alert={a} />
            <AlertTranslationsList translations={a.translations} />
          </section>
          <AlertAudit alertId={a.id} status={a.status} />
          <Deliveries alertId={a.id} finished={isFinished(a)} />
        </div>
      )}
    </section>
  );
}

function Deliveries({ alertId, finished }: { alertId: string; finished: boolean }) {
  const id = useId();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [channel, setChannel] = useState<DeliveryChannel | ''>('');
  const { data, currentData, isLoading, isFetching, isError, refetch } = useAlertDeliveriesQuery({ id: alertId, page, status, channel });
  // The rows change while the dispatch runs; read them again once it has finished.
  useEffect(() => {
    if (finished) void refetch();
  }, [finished, refetch]);

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <h2 id={`${id}-title`}>Deliveries {data ? <span className="muted small">({data.total})</span> : null}</h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => refetch()} disabled={isFetching}>
          Refresh Deliveries
        </button>
      </div>
      <div className="filters">
        <div className="field">
          <label htmlFor={`${id}-status`}>Delivery Status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DeliveryStatus | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {DELIVERY_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-channel`}>Channel</label>
          <select
            id={`${id}-channel`}
            value={channel}
            onChange={(e) => {
              setChannel(e.target.value as DeliveryChannel | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            {DELIVERY_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {CHANNEL_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {isLoading ? (
        <Spinner label="Loading deliveries" />
      ) : isError && !currentData ? (
        <p role="alert">Failed to fetch delivery status</p>
      ) : !data?.items.length ? (
        <p className="empty-state">No deliveries{status || channel ? ' match these filters' : ' yet'}.</p>
      ) : (
        <>
          {isError && (
            <p className="small muted" role="status">
              Could not read the deliveries again; showing the last list read. Refresh to try again.
            </p>
          )}
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Deliveries of this alert</caption>
              <thead>
                <tr>
                  <th scope="col">Recipient</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Message</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Delivered</th>
                  <th scope="col">Read</th>
                  <th scope="col">Receipt</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((d) => (
                  <tr key={d.id}>
                    <td>
                      {/* Whom it went to on its channel, masked; the person's id only when nothing is on file now. */}
                      {d.contact ? (
                        <span title={`User ${d.userId}`}>{d.contact}</span>
                      ) : (
                        <span className="muted">No {CHANNEL_LABELS[d.channel]} contact on file</span>
                      )}
                    </td>
                    <td>{CHANNEL_LABELS[d.channel]}</td>
                    <td>
                      {d.kind ? DELIVERY_MESSAGE_KIND_LABELS[d.kind] : '—'}
                      {d.version !== undefined && <span className="small muted"> (v{d.version})</span>}
                    </td>
                    <td>
                      {DELIVERY_STATUS_LABELS[d.status] ?? d.status}
                      {d.heldUntil && <span className="small muted"> (held until {formatDateTime(d.heldUntil)})</span>}
                      {d.inDigest && <span className="small muted"> (in a digest)</span>}
                    </td>
                    <td>{d.attempts}</td>
                    <td>{d.sentAt ? formatDateTime(d.sentAt) : '—'}</td>
                    <td>{d.deliveredAt ? formatDateTime(d.deliveredAt) : '—'}</td>
                    <td>{d.readAt ? formatDateTime(d.readAt) : '—'}</td>
                    <td className="small receipt-cell">
                      <ReceiptCell delivery={d} />
                    </td>
                    <td className="small">
                      {/* a receipt's reason is said once, with the receipt */}
                      {d.error && d.error === d.receiptReason
                        ? ''
                        : (d.error ?? (d.lastError ? <span className="muted">Earlier attempt: {d.lastError}</span> : ''))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Delivery pages" page={page} shown={data} onPage={setPage} />
        </>
      )}
    </section>
  );
}

/**
 * What the provider's receipt said of a delivery, when, and the provider's reason (issue #39): "Bounced · Mar 5, 2024
 * 3:07 PM · mailbox full". Only what the server returned; "—" while no receipt came.
 */
function ReceiptCell({ delivery: d }: { delivery: AlertDeliveryRow }) {
  if (!d.receipt) return <span className="muted">—</span>;
  return (
    <span data-receipt={d.receipt}>
      <strong>{DELIVERY_RECEIPT_LABELS[d.receipt] ?? d.receipt}</strong>
      {d.receiptAt && <span> · {formatDateTime(d.receiptAt)}</span>}
      {d.receiptReason && <span className="block">{d.receiptReason}</span>}
    </span>
  );
}

import { useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { ALERT_STATUS_LABELS, CATEGORY_LABELS, emptyCounts, type AdminAlert } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime, relativeAge } from '@/common/time';
import { useNow } from '@/common/useNow';
import { LoadError } from '@/features/alerts';
import { useCancelAlertMutation, useListAlertsQuery, useSendDraftMutation } from './alerts-admin.api';
import { isFinished } from './QuickSendPage';
import { useFallbackPolling, useLiveAdminAlerts, useSocketConnected, useWatchAlerts } from './live';
import { ChannelProgress, DeliveryIcon, Pager, PriorityBadge } from './ui';
import '@/features/alerts/alerts.css';

/** /admin/alerts: sent alerts with live per-channel delivery progress, and Cancel for active ones. */
export function AdminAlertsPage() {
  useLiveAdminAlerts();
  const now = useNow();
  const connected = useSocketConnected();
  const [page, setPage] = useState(1);
  // Without the socket, progress and new alerts stop arriving: read the page again until it is back.
  const pollingInterval = useFallbackPolling();
  const { data, isLoading, isError, isFetching, refetch } = useListAlertsQuery({ page }, { pollingInterval });
  const running = (data?.items ?? []).filter((a) => a.status === 'active' && !isFinished(a)).map((a) => a.id);
  useWatchAlerts(running);

  return (
    <section className="page" aria-labelledby="sent-alerts-title">
      <header className="page-header">
        <div>
          <h1 id="sent-alerts-title">Sent Alerts</h1>
          <p className="muted">
            Delivery progress updates live while alerts go out.{' '}
            {connected ? <span className="badge badge-live">Live</span> : <span className="badge">Reconnecting...</span>}
          </p>
        </div>
        <div className="row">
          <button type="button" className="btn btn-outline" onClick={() => refetch()} disabled={isFetching}>
            Refresh
          </button>
          <Link to="/admin/create-alert" className="btn btn-primary">
            Create Alert
          </Link>
        </div>
      </header>

      {isLoading ? (
        <Spinner label="Loading alerts" />
      ) : isError ? (
        <LoadError message="Failed to load alerts" onRetry={refetch} />
      ) : !data?.items.length ? (
        <div className="empty-state">
          <p>No alerts have been sent yet</p>
          <Link to="/admin/create-alert" className="btn btn-primary">
            Create Alert
          </Link>
        </div>
      ) : (
        <>
          <ul className="alert-list" aria-label="Sent alerts">
            {data.items.map((a) => (
              <SentAlertCard key={a.id} alert={a} now={now} />
            ))}
          </ul>
          <Pager page={page} shown={data} onPage={setPage} />
        </>
      )}
    </section>
  );
}

export function SentAlertCard({ alert: a, now }: { alert: AdminAlert; now: Date }) {
  const [confirming, setConfirming] = useState(false);
  const [cancelAlert, { isLoading: cancelling }] = useCancelAlertMutation();
  const [sendDraft, { isLoading: sendingDraft }] = useSendDraftMutation();
  const titleId = `sent-${a.id}`;

  async function send() {
    try {
      await sendDraft(a.id).unwrap();
      toast.success('Alert sent successfully!');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update alert'));
    }
  }

  async function cancel() {
    try {
      await cancelAlert(a.id).unwrap();
      toast.success('Alert cancelled');
      setConfirming(false);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update alert'));
    }
  }

  return (
    <li className="card sent-alert" aria-labelledby={titleId} data-alert-id={a.id}>
      <div className="row-between">
        <div>
          <h2 id={titleId} className="h3">
            <Link to={`/admin/alerts/${a.id}`}>{a.title}</Link>
          </h2>
          <div className="row small muted">
            <PriorityBadge severity={a.severity} />
            <span>{a.type}</span>
            {CATEGORY_LABELS[a.category] !== a.type && <span>{CATEGORY_LABELS[a.category]}</span>}
            <span title={formatDateTime(a.createdAt)}>{relativeAge(a.createdAt, now)}</span>
            <span className={`badge ${a.status === 'active' ? 'badge-success' : ''}`}>{ALERT_STATUS_LABELS[a.status]}</span>
          </div>
        </div>
        <div className="row">
          <DeliveryIcon label={a.deliveryLabel} withText />
          {a.status === 'draft' && (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={send}
              disabled={sendingDraft}
              aria-label={`${sendingDraft ? 'Sending...' : 'Send Now'}: ${a.title}`}
            >
              {sendingDraft ? 'Sending...' : 'Send Now'}
            </button>
          )}
          {(a.status === 'active' || a.status === 'draft') && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setConfirming(true)} aria-label={`Cancel alert ${a.title}`}>
              Cancel
            </button>
          )}
        </div>
      </div>
      <p className="small" aria-label={`Totals for ${a.title}`}>
        Recipients: <strong>{a.recipients ?? '—'}</strong> · Success rate: <strong>{a.successRate}%</strong>
        {a.recipients === null && a.status === 'active' && <span className="muted"> · selecting recipients...</span>}
      </p>
      {a.channels.map((c) => (
        <ChannelProgress key={c} channel={c} counts={a.summary[c] ?? emptyCounts()} alertTitle={a.title} />
      ))}
      {confirming && (
        <div className="modal-backdrop" role="presentation" onKeyDown={(e) => e.key === 'Escape' && setConfirming(false)}>
          <div className="modal" role="alertdialog" aria-modal="true" aria-labelledby={`${titleId}-confirm`}>
            <h2 id={`${titleId}-confirm`}>Cancel “{a.title}”?</h2>
            <p>Deliveries that have not gone out yet (quiet hours, digests) will not be sent. Deliveries already sent stay sent.</p>
            <div className="row-between">
              <button type="button" className="btn btn-outline" onClick={() => setConfirming(false)} autoFocus>
                Keep Alert
              </button>
              <button type="button" className="btn btn-danger" onClick={cancel} disabled={cancelling}>
                {cancelling ? 'Cancelling...' : 'Cancel Alert'}
              </button>
            </div>
          </div>
        </div>
      )}
    </li>
  );
}

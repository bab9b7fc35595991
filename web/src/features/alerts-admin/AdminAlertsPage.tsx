import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import toast from 'react-hot-toast';
import { ALERT_STATUSES, ALERT_STATUS_LABELS, CATEGORY_LABELS, emptyCounts, type AdminAlert, type AlertStatus } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime, relativeAge } from '@/common/time';
import { useNow } from '@/common/useNow';
import { LoadError } from '@/features/alerts';
import { useCancelAlertMutation, useListAlertsQuery } from './alerts-admin.api';
import { isFinished } from './QuickSendPage';
import { useFallbackPolling, useLiveAdminAlerts, useSocketConnected, useWatchAlerts } from './live';
import { DraftSendButtons } from './DraftSend';
import { useConsoleRights } from './rights';
import { ChannelProgress, DeliveryIcon, Pager, PriorityBadge, notSentYet, totalsText } from './ui';
import { useChannelReceipts } from './ChannelHealthPanel';
import '@/features/alerts/alerts.css';

/** The statuses an operator can still call off: before it goes out, and while it is in effect. */
const CANCELLABLE: readonly AlertStatus[] = ['draft', 'scheduled', 'pending_approval', 'active'];

/** The alerts awaiting approval, counted: the list's and the dashboard's "Awaiting approval (N)". */
export function useAwaitingApproval() {
  const { data } = useListAlertsQuery({ page: 1, pageSize: 1, status: 'pending_approval' });
  return data?.total ?? 0;
}

const isStatus = (v: string | null): v is AlertStatus => !!v && (ALERT_STATUSES as readonly string[]).includes(v);

/**
 * /admin/alerts: every alert, newest first, with live per-channel delivery progress; filtered by status in the URL
 * (?status=pending_approval: the ones awaiting approval). Send Now and Schedule for drafts, Cancel until it ended.
 */
export function AdminAlertsPage() {
  useLiveAdminAlerts();
  const now = useNow();
  const connected = useSocketConnected();
  const { canPublish } = useConsoleRights();
  const [params, setParams] = useSearchParams();
  const status = isStatus(params.get('status')) ? (params.get('status') as AlertStatus) : '';
  const [page, setPage] = useState(1);
  const awaiting = useAwaitingApproval();
  // Without the socket, progress and new alerts stop arriving: read the page again until it is back.
  const pollingInterval = useFallbackPolling();
  const { data, isLoading, isError, isFetching, refetch } = useListAlertsQuery(status ? { page, status } : { page }, { pollingInterval });
  const running = (data?.items ?? []).filter((a) => a.status === 'active' && !isFinished(a)).map((a) => a.id);
  useWatchAlerts(running);
  const filter = (next: AlertStatus | '') => {
    setPage(1);
    setParams(next ? { status: next } : {}, { replace: true });
  };

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
          {canPublish && (
            <Link to="/admin/create-alert" className="btn btn-primary">
              Create Alert
            </Link>
          )}
        </div>
      </header>

      <div className="filters">
        <div className="field">
          <label htmlFor="alerts-status-filter">Status</label>
          <select id="alerts-status-filter" value={status} onChange={(e) => filter(e.target.value as AlertStatus | '')}>
            <option value="">All statuses</option>
            {ALERT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ALERT_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        {awaiting > 0 && status !== 'pending_approval' && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => filter('pending_approval')}>
            Awaiting approval ({awaiting})
          </button>
        )}
      </div>

      {isLoading ? (
        <Spinner label="Loading alerts" />
      ) : isError ? (
        <LoadError message="Failed to load alerts" onRetry={refetch} />
      ) : !data?.items.length ? (
        <div className="empty-state">
          <p>{status ? `No alerts are ${ALERT_STATUS_LABELS[status].toLowerCase()}.` : 'No alerts have been sent yet'}</p>
          {canPublish && !status && (
            <Link to="/admin/create-alert" className="btn btn-primary">
              Create Alert
            </Link>
          )}
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
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [cancelAlert, { isLoading: cancelling }] = useCancelAlertMutation();
  const { canPublish } = useConsoleRights();
  const receipts = useChannelReceipts();
  const titleId = `sent-${a.id}`;
  const before = notSentYet(a);

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
            {a.breakGlass && (
              <span className="badge badge-failed" title={`Sent without approval: ${a.breakGlass.reason}`}>
                Sent without approval
              </span>
            )}
          </div>
        </div>
        <div className="row">
          {!before && <DeliveryIcon label={a.deliveryLabel} withText />}
          {canPublish && a.status === 'draft' && <DraftSendButtons alert={a} onOutcome={setOutcome} />}
          {canPublish && CANCELLABLE.includes(a.status) && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setConfirming(true)} aria-label={`Cancel alert ${a.title}`}>
              Cancel
            </button>
          )}
        </div>
      </div>
      <p className="small" aria-label={`Totals for ${a.title}`}>
        {totalsText(a)}
        {a.recipients === null && a.status === 'active' && <span className="muted"> · selecting recipients...</span>}
      </p>
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'small' : 'small field-error'}>
          {outcome.text}
        </p>
      )}
      {!before &&
        a.channels.map((c) => <ChannelProgress key={c} channel={c} counts={a.summary[c] ?? emptyCounts()} alertTitle={a.title} receipts={receipts[c]} />)}
      {confirming && (
        <div className="modal-backdrop" role="presentation" onKeyDown={(e) => e.key === 'Escape' && setConfirming(false)}>
          <div className="modal" role="alertdialog" aria-modal="true" aria-labelledby={`${titleId}-confirm`}>
            <h2 id={`${titleId}-confirm`}>Cancel “{a.title}”?</h2>
            <p>
              {before
                ? 'It will not go out: nobody is sent anything.'
                : 'Deliveries that have not gone out yet (quiet hours, digests) will not be sent. Deliveries already sent stay sent.'}
            </p>
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

import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime, relativeAge } from '@/common/time';
import { useNow } from '@/common/useNow';
import type { HelpRequest } from '@beacon/contracts';
import { LoadError } from '@/features/alerts';
import { useHelpRequestsQuery, useResolveHelpRequestMutation } from './alerts-admin.api';
import { Pager } from './ui';
import '@/features/alerts/alerts.css';

const PAGE_SIZE = 20;
/** No live event announces a help request, so an open list is read again this often. */
export const HELP_REQUESTS_POLL_MS = 30_000;

type StatusFilter = HelpRequest['status'] | '';

/** /admin/help-requests: what people asked for from an alert (Request Help on /alerts), newest first. */
export function HelpRequestsPage() {
  const id = useId();
  const now = useNow();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<StatusFilter>('open');
  const { data, isLoading, isError, isFetching, refetch } = useHelpRequestsQuery(
    { page, pageSize: PAGE_SIZE, status },
    { pollingInterval: HELP_REQUESTS_POLL_MS },
  );

  return (
    <section className="page" aria-labelledby="help-requests-title">
      <header className="page-header">
        <div>
          <h1 id="help-requests-title">Help Requests</h1>
          <p className="muted">Sent by people from an alert, newest first.</p>
        </div>
        <button type="button" className="btn btn-outline" onClick={() => refetch()} disabled={isFetching}>
          Refresh
        </button>
      </header>
      <div className="filters">
        <div className="field">
          <label htmlFor={`${id}-status`}>Show</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as StatusFilter);
              setPage(1);
            }}
          >
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="">All</option>
          </select>
        </div>
      </div>
      {isLoading ? (
        <Spinner label="Loading help requests" />
      ) : isError || !data ? (
        <LoadError message="Failed to load help requests" onRetry={refetch} />
      ) : !data.items.length ? (
        <p className="empty-state">{status === 'open' ? 'No open help requests.' : 'No help requests.'}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Help requests</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">User</th>
                  <th scope="col">Alert</th>
                  <th scope="col">Message</th>
                  <th scope="col">Location</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((h) => (
                  <HelpRequestRow key={h.id} request={h} now={now} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Help request pages" page={page} shown={data} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function HelpRequestRow({ request: h, now }: { request: HelpRequest; now: Date }) {
  const [resolve, { isLoading }] = useResolveHelpRequestMutation();
  const who = h.userEmail || h.userId;

  async function markResolved() {
    try {
      await resolve(h.id).unwrap();
      toast.success('Help request resolved');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to resolve the help request'));
    }
  }

  return (
    <tr data-help-request-id={h.id}>
      <td>
        <span title={formatDateTime(h.createdAt)}>{relativeAge(h.createdAt, now)}</span>
        <div className="small muted">{formatDateTime(h.createdAt)}</div>
      </td>
      <td>{who}</td>
      <td>
        <Link to={`/admin/alerts/${h.alertId}`}>{h.alertTitle || 'View alert'}</Link>
      </td>
      <td className="pre-wrap">{h.message || <span className="muted">No message</span>}</td>
      <td>
        {h.lat !== null && h.lng !== null ? (
          <a href={`https://www.openstreetmap.org/?mlat=${h.lat}&mlon=${h.lng}#map=16/${h.lat}/${h.lng}`} target="_blank" rel="noopener noreferrer">
            {h.lat}, {h.lng}
          </a>
        ) : (
          <span className="muted">Not shared</span>
        )}
      </td>
      <td>
        {h.status === 'open' ? (
          <button type="button" className="btn btn-outline btn-sm" onClick={markResolved} disabled={isLoading} aria-label={`Resolve help request from ${who}`}>
            {isLoading ? 'Resolving...' : 'Resolve'}
          </button>
        ) : (
          <span className="badge badge-success">Resolved</span>
        )}
      </td>
    </tr>
  );
}

import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime, relativeAge } from '@/common/time';
import { useNow } from '@/common/useNow';
import { RESOLUTION_NOTE_LIMITS, type HelpRequest } from '@beacon/contracts';
import { LoadError } from '@/features/alerts';
import { useHelpRequestsQuery, useResolveHelpRequestMutation } from './alerts-admin.api';
import { Pager } from './ui';
import { useConsoleRights } from './rights';
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
                  <th scope="col">Person</th>
                  <th scope="col">Alert</th>
                  <th scope="col">Message</th>
                  <th scope="col">Place</th>
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

const osm = (lat: number, lng: number) => `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;

/**
 * Where to find the person: the location they shared, else their home as it was when they asked (the place the alert
 * was sent to them for), with the alert's place name; "Not known" when neither is.
 */
function PlaceCell({ request: h }: { request: HelpRequest }) {
  const place = h.place ?? (h.lat !== null && h.lng !== null ? { source: 'shared' as const, lat: h.lat, lng: h.lng } : null);
  return (
    <>
      {place ? (
        <>
          <a href={osm(place.lat, place.lng)} target="_blank" rel="noopener noreferrer">
            {place.lat}, {place.lng}
          </a>
          <div className="small muted">{place.source === 'shared' ? 'Shared with the request' : 'Their home (where the alert reached them)'}</div>
        </>
      ) : (
        <span className="muted">Not known</span>
      )}
      {h.alertLocationName && <div className="small">Alert area: {h.alertLocationName}</div>}
    </>
  );
}

function HelpRequestRow({ request: h, now }: { request: HelpRequest; now: Date }) {
  const id = useId();
  const { canPublish } = useConsoleRights();
  const [resolve, { isLoading }] = useResolveHelpRequestMutation();
  const [noting, setNoting] = useState(false);
  const [note, setNote] = useState('');
  const who = h.userEmail || h.userId;
  const short = note.trim().length < RESOLUTION_NOTE_LIMITS.min;

  async function markResolved() {
    try {
      await resolve({ id: h.id, note: note.trim() }).unwrap();
      toast.success('Help request resolved');
      setNoting(false);
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
      <td>
        {h.userEmail ? <a href={`mailto:${h.userEmail}`}>{h.userEmail}</a> : <span className="muted">No e-mail (user {h.userId})</span>}
        <div className="small">{h.phone ? <a href={`tel:${h.phone}`}>{h.phone}</a> : <span className="muted">No phone on file</span>}</div>
      </td>
      <td>
        <Link to={`/admin/alerts/${h.alertId}`}>{h.alertTitle || 'View alert'}</Link>
      </td>
      <td className="pre-wrap">{h.message || <span className="muted">No message</span>}</td>
      <td>
        <PlaceCell request={h} />
      </td>
      <td>
        {h.status !== 'open' ? (
          <>
            <span className="badge badge-success">Resolved</span>
            {h.resolution && (
              <div className="small">
                {h.resolution.note && <span className="pre-wrap">“{h.resolution.note}”</span>}
                {(h.resolution.byEmail || h.resolution.at) && (
                  <span className="muted block">
                    {h.resolution.byEmail ? `by ${h.resolution.byEmail}` : ''} {h.resolution.at ? formatDateTime(h.resolution.at) : ''}
                  </span>
                )}
              </div>
            )}
          </>
        ) : !canPublish ? (
          <span className="badge">Open</span>
        ) : noting ? (
          <form
            className="stack"
            aria-label={`Resolve help request from ${who}`}
            onSubmit={(e) => {
              e.preventDefault();
              if (!short) void markResolved();
            }}
          >
            <label htmlFor={`${id}-note`} className="small">
              What was done (required)
            </label>
            <textarea
              id={`${id}-note`}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={RESOLUTION_NOTE_LIMITS.max}
              rows={2}
              required
              autoFocus
            />
            <div className="row">
              <button type="submit" className="btn btn-primary btn-sm" disabled={isLoading || short}>
                {isLoading ? 'Resolving...' : 'Mark resolved'}
              </button>
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setNoting(false)} disabled={isLoading}>
                Back
              </button>
            </div>
          </form>
        ) : (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              setNote('');
              setNoting(true);
            }}
            aria-label={`Resolve help request from ${who}`}
          >
            Resolve
          </button>
        )}
      </td>
    </tr>
  );
}

import { lazy, Suspense, useCallback, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router-dom';
import { REACH_STATE_LABELS, REACH_STATES, type AdminAlert, type AlertProgress, type AlertReach, type ReachState } from '@beacon/contracts';
import { useSocketEvent } from '@/app/socket';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { useFallbackPolling } from './live';
import { useAlertReachQuery } from './reach.api';
import { HELP_COLOURS, REACH_COLOURS } from './reach-colours';
import './reach.css';

// Leaflet is large and only the map needs it: loaded when there is something to draw.
const ReachMapView = lazy(() => import('./ReachMapView'));

/** While an alert goes out, its map is read again at most this often (its progress events come a few times a second). */
export const REACH_REFRESH_MS = 2000;

/** The legend's order: the good news first, then what is left to do. */
const LEGEND: ReachState[] = ['reached', 'pending', 'failed', 'needs_help'];

const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/**
 * The alert page's map of reach (issue #42): where the people the alert was sent to live, counted by state in squares
 * of at least a handful of people (never one person's home), with the alert's area and the help requests where their
 * senders said they were; a table says the same in words. Read again as the alert's progress events arrive (a help
 * request sends one too), at most every REACH_REFRESH_MS. Nothing for an alert that has not gone out.
 */
export function ReachMap({ alert }: { alert: AdminAlert }) {
  if (!alert.sentAt) return null;
  return <ReachMapCard alert={alert} />;
}

function ReachMapCard({ alert }: { alert: AdminAlert }) {
  const id = useId();
  const polling = useFallbackPolling(alert.status === 'active');
  const { data, isLoading, isError, isFetching, refetch } = useAlertReachQuery(alert.id, { pollingInterval: polling });
  useRefreshOnProgress(alert.id, refetch);
  // `data` may be another alert's (navigating between them)
  const reach = data?.alertId === alert.id ? data : undefined;

  return (
    <section className="card reach" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <h2 id={`${id}-title`}>Reach map</h2>
        {reach && <span className="small muted">Counted at {CLOCK.format(new Date(reach.at))}</span>}
      </div>
      <p className="small muted">
        Where the people this alert was sent to live, counted in squares of at least {reach?.minCellPeople ?? 5} people: no one&apos;s home is shown. Help
        requests are shown where the person said they were.
      </p>
      {isLoading ? (
        <Spinner label="Loading the reach map" />
      ) : !reach ? (
        <div className="empty-state">
          <p>Could not load the reach map.</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()} disabled={isFetching}>
            Try again
          </button>
        </div>
      ) : (
        <>
          {isError && (
            <p className="small muted" role="status">
              Could not read the map again; showing the counts of {CLOCK.format(new Date(reach.at))}.
            </p>
          )}
          <ul className="reach-legend" aria-label="Map legend">
            {LEGEND.map((s) => (
              <li key={s}>
                <span className="reach-swatch" style={{ background: REACH_COLOURS[s] }} aria-hidden="true" />
                {REACH_STATE_LABELS[s]}
              </li>
            ))}
            <li>
              <span className="reach-swatch reach-point" style={{ background: HELP_COLOURS.open }} aria-hidden="true" />
              Help request (where shared)
            </li>
          </ul>
          <Suspense
            fallback={
              <div className="area-map area-map-loading" style={{ height: 420 }}>
                <Spinner label="Loading map" />
              </div>
            }
          >
            <ReachMapView area={alert.area} cells={reach.cells} helpRequests={reach.helpRequests} label={`Map of whom the alert ${alert.title} reached`} />
          </Suspense>
          <ReachTable reach={reach} />
          <HelpRequestsList reach={reach} />
        </>
      )}
    </section>
  );
}

/**
 * Reads the map again when the alert's progress moves: at once when the last read is REACH_REFRESH_MS old, else once
 * when it will be (a burst of events makes one read, and its last event is never left out).
 */
function useRefreshOnProgress(alertId: string, refetch: () => unknown) {
  const lastRead = useRef(Date.now());
  const trailing = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (trailing.current) clearTimeout(trailing.current);
    },
    [],
  );
  const onProgress = useCallback(
    (p: AlertProgress) => {
      if (p.alertId !== alertId || trailing.current) return;
      const read = () => {
        trailing.current = null;
        lastRead.current = Date.now();
        void refetch();
      };
      const wait = REACH_REFRESH_MS - (Date.now() - lastRead.current);
      if (wait <= 0) read();
      else trailing.current = setTimeout(read, wait);
    },
    [alertId, refetch],
  );
  useSocketEvent('alert:progress', onProgress);
}

/** The map in words: every recipient by state, and where they are counted (on the map, too few to place, no home). */
function ReachTable({ reach }: { reach: AlertReach }) {
  const onMap = (s: ReachState) => reach.cells.reduce((n, c) => n + c.counts[s], 0);
  const sum = (f: (s: ReachState) => number) => REACH_STATES.reduce((n, s) => n + f(s), 0);
  const columns: [string, (s: ReachState) => number][] = [
    ['All recipients', (s) => reach.totals[s]],
    ['On the map', onMap],
    ['Too few to place', (s) => reach.elsewhere[s]],
    ['No home on file', (s) => reach.unlocated[s]],
  ];
  const unconfirmed = reach.totals.reached - reach.confirmed;
  return (
    <>
      <div className="table-wrap">
        <table className="reach-table">
          <caption>Recipients by state</caption>
          <thead>
            <tr>
              <th scope="col">State</th>
              {columns.map(([name]) => (
                <th scope="col" key={name}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {LEGEND.map((s) => (
              <tr key={s}>
                <th scope="row">{REACH_STATE_LABELS[s]}</th>
                {columns.map(([name, of]) => (
                  <td key={name}>{of(s)}</td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">Total</th>
              {columns.map(([name, of]) => (
                <td key={name}>{sum(of)}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      {reach.totals.reached > 0 && (
        <p className="small muted">
          Of the {reach.totals.reached} reached, {reach.confirmed} confirmed by a receipt (delivered or read)
          {unconfirmed > 0 ? `; ${unconfirmed} sent to the provider, no receipt yet` : ''}.
        </p>
      )}
    </>
  );
}

/** The help requests of the alert, open ones first, with the place each sender shared (or that they shared none). */
function HelpRequestsList({ reach }: { reach: AlertReach }) {
  const id = useId();
  const { helpRequests, helpRequestsTotal } = reach;
  return (
    <div className="reach-help">
      <h3 id={`${id}-help`}>Help requests ({helpRequestsTotal})</h3>
      {helpRequests.length === 0 ? (
        <p className="muted">No help requests.</p>
      ) : (
        <ul aria-labelledby={`${id}-help`}>
          {helpRequests.map((h) => (
            <li key={h.id}>
              <span className={`badge ${h.status === 'open' ? 'badge-high' : 'badge-success'}`}>{h.status === 'open' ? 'Open' : 'Resolved'}</span>{' '}
              {formatDateTime(h.createdAt)}
              {' · '}
              {h.lat !== null && h.lng !== null ? (
                <span>
                  at {h.lat}, {h.lng}
                </span>
              ) : (
                <span className="muted">no location shared</span>
              )}
              {h.message && <div className="pre-wrap">{h.message}</div>}
            </li>
          ))}
        </ul>
      )}
      {helpRequestsTotal > helpRequests.length && (
        <p className="small muted">
          Showing {helpRequests.length} of {helpRequestsTotal}: <Link to="/admin/help-requests">all help requests</Link>.
        </p>
      )}
    </div>
  );
}

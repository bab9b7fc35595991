import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import toast from 'react-hot-toast';
import { ADMIN_ALERT_TYPES, historyStatus, PRIORITIES, PRIORITY_LABELS, type Priority } from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import { useListAlertsQuery } from './alerts-admin.api';
import { CsvDownloadButton } from './CsvDownloadButton';
import { downloadCsv, historyCsv, historyCsvFileName, historyExportFileName } from './history-csv';
import { useLiveAdminAlerts } from './live';
import { DeliveryIcon, Pager, PriorityBadge, channelList } from './ui';
import '@/features/alerts/alerts.css';

/** /admin/history: search, Type and Priority filters, paged table, CSV export of the page shown. Filters live in the URL. */
export function AlertHistoryPage() {
  const id = useId();
  useLiveAdminAlerts();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const type = params.get('type') ?? '';
  const priority = (params.get('priority') ?? '') as Priority | '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [searchText, setSearchText] = useState(search);

  // The latest rendered filters: a delayed update must start from them, not from those of an older render.
  const latest = useRef(params);
  latest.current = params;
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(latest.current);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };

  // Search as the admin types, once they pause; any filter change returns to page 1. A URL change
  // (Clear Filters, back button) cancels a pending search update.
  useEffect(() => {
    if (searchText.trim() === search) return;
    const t = setTimeout(() => update({ search: searchText.trim(), page: '' }), 300);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchText, search]);

  const { data, isLoading, isFetching, isError, refetch } = useListAlertsQuery({ page, search, type, priority });
  const filtered = Boolean(search || type || priority);

  function clearFilters() {
    setSearchText('');
    setParams(new URLSearchParams(), { replace: true });
  }

  function exportCsv() {
    if (!data) return;
    downloadCsv(historyCsvFileName(), historyCsv(data.items));
    toast.success(`Exported ${data.items.length} alert${data.items.length === 1 ? '' : 's'}`);
  }

  return (
    <section className="page" aria-labelledby="history-title">
      <header className="page-header">
        <div>
          <h1 id="history-title">Alert History</h1>
          <p className="muted">{data ? `${data.total} alert${data.total === 1 ? '' : 's'}` : ' '}</p>
        </div>
        <div className="row">
          <button type="button" className="btn btn-outline" onClick={() => refetch()} disabled={isFetching}>
            {isFetching && !isLoading ? 'Refreshing...' : 'Refresh'}
          </button>
          <button type="button" className="btn btn-primary" onClick={exportCsv} disabled={!data?.items.length}>
            Export CSV
          </button>
          {/* The spec's export is the page shown; this one is every alert these filters match, made by the server. */}
          <CsvDownloadButton
            url={`/api/alerts/export.csv?${new URLSearchParams(Object.entries({ search, type, priority }).filter(([, v]) => v))}`}
            fileName={historyExportFileName()}
            label={data ? `Export all ${data.total} (CSV)` : 'Export all (CSV)'}
          />
        </div>
      </header>

      <div className="card filters" role="search" aria-label="Filter alerts">
        <div className="field">
          <label htmlFor={`${id}-search`}>Search</label>
          <input id={`${id}-search`} type="search" value={searchText} onChange={(e) => setSearchText(e.target.value)} placeholder="Title or message" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Type</label>
          <select id={`${id}-type`} value={type} onChange={(e) => update({ type: e.target.value, page: '' })}>
            <option value="">All Types</option>
            {ADMIN_ALERT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-priority`}>Priority</label>
          <select id={`${id}-priority`} value={priority} onChange={(e) => update({ priority: e.target.value, page: '' })}>
            <option value="">All Priorities</option>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn btn-outline" onClick={clearFilters}>
          Clear Filters
        </button>
      </div>

      <div className="card" style={{ marginTop: '1rem', padding: 0 }}>
        {isLoading ? (
          <div className="empty-state">
            <Spinner label="Loading alert history" />
          </div>
        ) : isError ? (
          <LoadError message="Failed to fetch alerts" onRetry={refetch} />
        ) : !data?.items.length ? (
          <div className="empty-state">
            {filtered ? (
              <>
                <p>
                  <strong>No alerts found</strong>
                </p>
                <p>Try adjusting your search or filters</p>
              </>
            ) : (
              <p>
                <strong>No alerts have been sent yet</strong>
              </p>
            )}
          </div>
        ) : (
          <div className="table-wrap">
            <table aria-busy={isFetching}>
              <caption className="visually-hidden">Sent alerts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date &amp; Time</th>
                  <th scope="col">Type</th>
                  <th scope="col">Title</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Channels</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((a) => (
                  <tr key={a.id}>
                    <td>{formatDateTime(a.createdAt)}</td>
                    <td>{a.type}</td>
                    <td>
                      {a.title}
                      {a.source === 'cap' && (
                        <>
                          {' '}
                          <span className="badge" title="Taken from an official CAP feed">
                            CAP
                          </span>
                        </>
                      )}
                    </td>
                    <td>
                      <PriorityBadge severity={a.severity} />
                    </td>
                    <td>{channelList(a.channels)}</td>
                    <td>{a.status === 'active' ? <DeliveryIcon label={a.deliveryLabel} withText /> : historyStatus(a)}</td>
                    <td>
                      <button type="button" className="btn btn-outline btn-sm" onClick={() => navigate(`/admin/alerts/${a.id}`)} aria-label={`View ${a.title}`}>
                        View
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      {data && <Pager page={page} shown={data} onPage={(p) => update({ page: String(p) })} />}
    </section>
  );
}

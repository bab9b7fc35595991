import { useCallback, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { INCIDENT_TYPE_INFO, incidentTypeLabel, type Incident } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { useAppDispatch } from '@/app/hooks';
import { useSocketEvent } from '@/app/socket';
import { Spinner } from '@/common/Spinner';
import { formatDateTime, relativeAge } from '@/common/time';
import { moderationApi, useChangeIncidentStatusMutation, useModerationQueueInfiniteQuery } from './moderation.api';
import './moderation.css';

/** The admin moderation queue at /admin/moderation: pending reports, oldest first, verified or rejected here. */
export function ModerationPage() {
  const dispatch = useAppDispatch();
  const { data, isLoading, isError, hasNextPage, fetchNextPage, isFetchingNextPage, refetch } = useModerationQueueInfiniteQuery();
  const reports = data?.pages.flatMap((p) => p.items) ?? [];
  const total = data?.pages[data.pages.length - 1]?.total ?? 0;

  // a new report reaches the admins room: reload the queue
  const onReported = useCallback(() => {
    dispatch(moderationApi.util.invalidateTags(['Incident']));
  }, [dispatch]);
  useSocketEvent('incident:reported', onReported);

  return (
    <div className="page moderation-page">
      <div className="page-header">
        <div>
          <h1>Moderation Queue</h1>
          <p className="muted">
            {data ? `${total} ${total === 1 ? 'report' : 'reports'} waiting for review` : 'Reports waiting for review'}.
            {' '}Verified reports appear on the public map; a verified wrong-way driver also creates a draft critical alert.
          </p>
        </div>
        <button type="button" className="btn btn-outline" onClick={() => void refetch()}>Refresh</button>
      </div>
      {isLoading && <Spinner label="Loading reports" />}
      {isError && <p className="empty-state">The moderation queue could not be loaded. Try Refresh.</p>}
      {data && !reports.length && (
        <div className="empty-state card"><p><strong>No reports waiting for review</strong></p><p>New reports will show up here.</p></div>
      )}
      <div className="stack" aria-label="Pending reports" role="list">
        {reports.map((r) => <ReportCard key={r.id} report={r} />)}
      </div>
      {hasNextPage && (
        <button type="button" className="btn btn-outline btn-block" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? 'Loading...' : 'Load More Reports'}
        </button>
      )}
    </div>
  );
}

function ReportCard({ report }: { report: Incident }) {
  const id = useId();
  const [note, setNote] = useState('');
  const [changeStatus, { isLoading }] = useChangeIncidentStatusMutation();
  const info = INCIDENT_TYPE_INFO[report.type];

  const decide = async (status: 'verified' | 'rejected') => {
    try {
      await changeStatus({ id: report.id, status, note: note.trim() || undefined }).unwrap();
      toast.success(status === 'verified' ? 'Report verified' : 'Report rejected');
    } catch (err) {
      toast.error((err as ApiError).message ?? 'Failed to update the report');
    }
  };

  return (
    <article className="card report-card" role="listitem" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <h2 id={`${id}-title`} className="report-title">{info?.icon} {incidentTypeLabel(report.type)}</h2>
        <span className="badge badge-medium">Pending</span>
      </div>
      <p className="user-text">{report.description}</p>
      <dl className="report-facts small">
        <dt>Location</dt>
        <dd>
          {report.locationName && <span className="user-text">{report.locationName} · </span>}
          {report.lat.toFixed(5)}, {report.lng.toFixed(5)}
        </dd>
        <dt>Reported</dt>
        <dd><time dateTime={report.createdAt}>{formatDateTime(report.createdAt)}</time> ({relativeAge(report.createdAt)})</dd>
      </dl>
      {report.photoUrl && (
        <a href={report.photoUrl} target="_blank" rel="noopener noreferrer">
          <img className="report-photo" src={report.photoUrl} alt={`Photo of the reported ${incidentTypeLabel(report.type).toLowerCase()}`} loading="lazy" />
        </a>
      )}
      <div className="field">
        <label htmlFor={`${id}-note`}>Note (optional)</label>
        <input id={`${id}-note`} value={note} maxLength={500} placeholder="Why, for the record" onChange={(e) => setNote(e.target.value)} />
      </div>
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={isLoading} onClick={() => void decide('verified')}>Verify</button>
        <button type="button" className="btn btn-outline" disabled={isLoading} onClick={() => void decide('rejected')}>Reject</button>
      </div>
    </article>
  );
}

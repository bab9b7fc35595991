import { useCallback, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { incidentTypeLabel, isUrgentIncidentType, URGENT_INCIDENT_TYPES, type ModerationIncident } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { useAppDispatch } from '@/app/hooks';
import { useSocketEvent } from '@/app/socket';
import { Spinner } from '@/common/Spinner';
import { formatDateTime, relativeAge } from '@/common/time';
import { moderationApi, useChangeIncidentStatusMutation, useModerationQueueInfiniteQuery } from './moderation.api';
import { reporterName, reporterRecord } from './reporter';
import { useAnnounceVerified, VERIFIED_TOASTS } from './verified-toast';
import './moderation.css';
import { CategoryIcon, INCIDENT_TYPE_ICONS } from '@/common/icons';

const URGENT_LABELS = URGENT_INCIDENT_TYPES.map(incidentTypeLabel);

/**
 * The admin moderation queue at /admin/moderation: pending reports, urgent types first (wrong-way drivers, then
 * accidents), then the longest waiting; each with its reporter and their record. Verified or rejected here.
 */
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
  // the page, not the card, announces a verification: the card leaves the list as soon as the queue reloads
  const announceVerified = useAnnounceVerified();

  return (
    <div className="page moderation-page">
      <div className="page-header">
        <div>
          <h1>Moderation Queue</h1>
          <p className="muted">
            {data ? `${total} ${total === 1 ? 'report' : 'reports'} waiting for review` : 'Reports waiting for review'}. Urgent reports (
            {URGENT_LABELS.join(', then ')}) come first, then the longest waiting. Verified reports appear on the public map; a verified wrong-way driver also
            creates a draft critical alert.
          </p>
        </div>
        <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
          Refresh
        </button>
      </div>
      {isLoading && <Spinner label="Loading reports" />}
      {isError && <p className="empty-state">The moderation queue could not be loaded. Try Refresh.</p>}
      {data && !reports.length && (
        <div className="empty-state card">
          <p>
            <strong>No reports waiting for review</strong>
          </p>
          <p>New reports will show up here.</p>
        </div>
      )}
      <div className="stack" aria-label="Pending reports" role="list">
        {reports.map((r) => (
          <ReportCard key={r.id} report={r} onVerified={announceVerified} />
        ))}
      </div>
      {hasNextPage && (
        <button type="button" className="btn btn-outline btn-block" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? 'Loading...' : 'Load More Reports'}
        </button>
      )}
    </div>
  );
}

function ReportCard({ report, onVerified }: { report: ModerationIncident; onVerified: (report: ModerationIncident) => Promise<void> }) {
  const id = useId();
  const [note, setNote] = useState('');
  const [changeStatus, { isLoading }] = useChangeIncidentStatusMutation();
  const urgent = isUrgentIncidentType(report.type);

  const decide = async (status: 'verified' | 'rejected') => {
    try {
      await changeStatus({ id: report.id, status, note: note.trim() || undefined }).unwrap();
    } catch (err) {
      toast.error((err as ApiError).message ?? 'Failed to update the report');
      return;
    }
    if (status === 'verified') void onVerified(report);
    else toast.success(VERIFIED_TOASTS.rejected);
  };

  return (
    <article className={`card report-card${urgent ? ' report-urgent' : ''}`} role="listitem" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <h2 id={`${id}-title`} className="report-title">
          <CategoryIcon icon={INCIDENT_TYPE_ICONS[report.type]} /> {incidentTypeLabel(report.type)}
        </h2>
        <span className="row report-badges">
          {urgent && <span className="badge badge-critical">Urgent</span>}
          <span className="badge badge-medium">Pending</span>
        </span>
      </div>
      <p className="report-reporter small">
        Reported by <strong className="user-text">{reporterName(report.reporter)}</strong> · {reporterRecord(report.reporter)}
      </p>
      <p className="user-text">{report.description}</p>
      <dl className="report-facts small">
        <dt>Location</dt>
        <dd>
          {report.locationName && <span className="user-text">{report.locationName} · </span>}
          {report.lat.toFixed(5)}, {report.lng.toFixed(5)}
        </dd>
        <dt>Reported</dt>
        <dd>
          <time dateTime={report.createdAt}>{formatDateTime(report.createdAt)}</time> ({relativeAge(report.createdAt)})
        </dd>
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
        <button type="button" className="btn btn-primary" disabled={isLoading} onClick={() => void decide('verified')}>
          Verify
        </button>
        <button type="button" className="btn btn-outline" disabled={isLoading} onClick={() => void decide('rejected')}>
          Reject
        </button>
      </div>
    </article>
  );
}

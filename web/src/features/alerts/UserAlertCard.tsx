import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { ALERT_STATUS_LABELS, CATEGORY_LABELS, lifecycleWords, type UserAlert } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { currentPosition } from '@/common/geolocation';
import { formatDateTime, relativeAge } from '@/common/time';
import { useMarkSafeMutation, useRequestHelpMutation } from './alerts.api';
import { alertAsText } from './notifications';
import { SeverityBadge } from './ui';
import { Check, MapPin, Phone } from 'lucide-react';

/** The pages of an infinite alerts query that the list needs for its Load More button. */
interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The user's alerts as cards, with a Load More button while the server has more pages. */
export function UserAlertList({ alerts, now, label, moreLabel, more }: { alerts: UserAlert[]; now: Date; label: string; moreLabel: string; more: MorePages }) {
  return (
    <>
      <ul className="alert-list" aria-label={label}>
        {alerts.map((a) => (
          <UserAlertCard key={a.id} alert={a} now={now} />
        ))}
      </ul>
      {more.hasNextPage && (
        <div className="center" style={{ marginTop: '1rem' }}>
          <button type="button" className="btn btn-outline" onClick={() => more.fetchNextPage()} disabled={more.isFetchingNextPage}>
            {more.isFetchingNextPage ? 'Loading...' : moreLabel}
          </button>
        </div>
      )}
    </>
  );
}

/** One alert on the user's screens, with I'm Safe, the help request and copy to clipboard. */
export function UserAlertCard({ alert: a, now, detailLink = true }: { alert: UserAlert; now: Date; detailLink?: boolean }) {
  const titleId = useId();
  const [helpOpen, setHelpOpen] = useState(false);
  const [markSafe, marking] = useMarkSafeMutation();

  async function safe() {
    try {
      await markSafe(a.id).unwrap();
      toast.success('Marked as safe');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update alert'));
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(alertAsText(a));
      toast.success('Alert copied to clipboard');
    } catch {
      toast.error('Failed to copy alert');
    }
  }

  return (
    <li className={`user-alert sev-${a.severity} ${a.read ? 'read' : 'unread'}`} aria-labelledby={titleId} data-alert-id={a.id}>
      <div className="row-between">
        <h2 id={titleId} className="h3">
          {!a.read && <span className="unread-dot" aria-hidden="true" />}
          {detailLink ? <Link to={`/alerts/${a.id}`}>{a.title}</Link> : a.title}
          {!a.read && <span className="visually-hidden"> (unread)</span>}
        </h2>
        <SeverityBadge severity={a.severity} />
      </div>
      {a.allClear && (
        <p className="notice" role="note" style={{ margin: 0 }}>
          <strong>All clear.</strong> {a.allClear.message ?? lifecycleWords(a.language).allClearDefault}
        </p>
      )}
      <p className="pre-wrap" style={{ margin: 0 }}>
        {a.message}
      </p>
      <p className="small muted row" style={{ margin: 0 }}>
        <span>{CATEGORY_LABELS[a.category]}</span>
        {a.locationName && (
          <span className="icon-text">
            <MapPin aria-hidden="true" size={14} /> {a.locationName}
          </span>
        )}
        <span title={formatDateTime(a.createdAt)}>{relativeAge(a.createdAt, now)}</span>
        {a.status !== 'active' && <span className="badge">{ALERT_STATUS_LABELS[a.status]}</span>}
        {a.version > 1 && a.status === 'active' && <span className="badge">Updated</span>}
        {a.expiresAt && a.status === 'active' && <span>Until {formatDateTime(a.expiresAt)}</span>}
        {a.read && (
          <span className="badge badge-success">
            <Check aria-hidden="true" size={14} /> Safe{a.readAt ? ` · ${relativeAge(a.readAt, now)}` : ''}
          </span>
        )}
      </p>
      <div className="row">
        {/* a cancelled alert was a false alarm, an all-clear says it is over: nothing to be safe from */}
        {!a.read && a.status !== 'cancelled' && a.status !== 'all_clear' && (
          <button type="button" className="btn btn-primary btn-sm" onClick={safe} disabled={marking.isLoading} aria-label={`I'm Safe: ${a.title}`}>
            I'm Safe
          </button>
        )}
        {a.status === 'active' && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setHelpOpen(true)} aria-label={`Request help: ${a.title}`}>
            Request Help
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-sm" onClick={copy} aria-label={`Copy alert: ${a.title}`}>
          Copy
        </button>
      </div>
      {helpOpen && <HelpDialog alert={a} onClose={() => setHelpOpen(false)} />}
    </li>
  );
}

function HelpDialog({ alert, onClose }: { alert: UserAlert; onClose: () => void }) {
  const id = useId();
  const [message, setMessage] = useState('');
  const [shareLocation, setShareLocation] = useState(true);
  const [requestHelp, { isLoading }] = useRequestHelpMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    // without a position the request still goes out
    const position = shareLocation ? await currentPosition() : null;
    try {
      await requestHelp({ id: alert.id, message: message.trim() || undefined, ...(position ?? {}) }).unwrap();
      toast.success('Help request sent');
      onClose();
    } catch (err) {
      // the server's wait alone would leave someone in danger with nothing to do meanwhile
      const limited = (err as Partial<ApiError> | undefined)?.code === 'rate_limited';
      toast.error(
        limited
          ? `${errorMessage(err, 'Too many help requests.')} If you are in immediate danger, call 911.`
          : errorMessage(err, 'The help request could not be sent. Call 911 if you are in danger.'),
      );
    }
  }

  return (
    <div className="modal-backdrop" role="presentation" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <form className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} onSubmit={submit}>
        <h2 id={`${id}-title`}>Request help</h2>
        <p className="small">
          Responders see your request with this alert. <strong>If you are in immediate danger, call 911.</strong>
        </p>
        <div className="field">
          <label htmlFor={`${id}-message`}>What do you need? (optional)</label>
          <textarea id={`${id}-message`} rows={3} maxLength={1000} value={message} onChange={(e) => setMessage(e.target.value)} autoFocus />
        </div>
        <label className="checkbox checkbox-line">
          <input type="checkbox" checked={shareLocation} onChange={(e) => setShareLocation(e.target.checked)} /> Share my current location
        </label>
        <div className="row-between">
          <a href="tel:911" className="btn call-911">
            <Phone aria-hidden="true" size={16} /> Call 911
          </a>
          <div className="row">
            <button type="button" className="btn btn-outline" onClick={onClose}>
              Close
            </button>
            <button type="submit" className="btn btn-primary" disabled={isLoading}>
              {isLoading ? 'Sending...' : 'Send Help Request'}
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}

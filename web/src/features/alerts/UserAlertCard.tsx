import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { CATEGORY_LABELS, lifecycleWords, type UserAlert } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { useAppDispatch } from '@/app/hooks';
import { currentPosition } from '@/common/geolocation';
import { formatDateTime, relativeAge } from '@/common/time';
import { changeLine, endedAt, endedLabel, isEnded, WARNING_WORDS } from '@/features/warnings/words';
import { useDismissAlertMutation, useMarkSafeMutation, useRequestHelpMutation } from './alerts.api';
import { refreshUnreadCount } from './live';
import { alertAsText } from './notifications';
import { SeverityBadge } from './ui';
import { Check, CircleCheck, CircleSlash, MapPin, Phone } from 'lucide-react';

/** The card's words for an ended alert and its Dismiss button (with the layer's, WARNING_WORDS, one place to translate). */
export const CARD_WORDS = {
  dismiss: 'Dismiss',
  dismissed: 'Alert dismissed',
  dismissFailed: 'Failed to dismiss the alert',
  updated: 'Updated',
} as const;

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

/**
 * One alert on the user's screens, with I'm Safe, the help request and copy to clipboard. It says what its latest
 * update changed and when, and its age counts from that change. Once it has ended (all clear, expired, cancelled) it
 * turns calm: its own colour and icon, "All clear" or "Ended" with the time, the closing words instead of the
 * instructions (kept behind "What the alert said"), no severity badge, no unread mark, and a Dismiss button.
 */
export function UserAlertCard({
  alert: a,
  now,
  detailLink = true,
  onDismissed,
}: {
  alert: UserAlert;
  now: Date;
  detailLink?: boolean;
  /** After Dismiss (the detail page goes back to the list: the alert has left the person's feed). */
  onDismissed?: () => void;
}) {
  const titleId = useId();
  const dispatch = useAppDispatch();
  const [helpOpen, setHelpOpen] = useState(false);
  const [markSafe, marking] = useMarkSafeMutation();
  const [dismiss, dismissing] = useDismissAlertMutation();
  const ended = isEnded(a, now);
  const unread = !a.read && !ended;
  const change = ended ? null : (changeLine(a, now) ?? (a.version > 1 ? CARD_WORDS.updated : null));
  // the age of what the person reads: the latest change's, else the alert's
  const since = a.lastChange?.at ?? a.createdAt;

  async function safe() {
    try {
      await markSafe(a.id).unwrap();
      refreshUnreadCount(dispatch);
      toast.success('Marked as safe');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update alert'));
    }
  }

  async function put() {
    try {
      await dismiss(a.id).unwrap();
      toast.success(CARD_WORDS.dismissed);
      onDismissed?.();
    } catch (err) {
      toast.error(errorMessage(err, CARD_WORDS.dismissFailed));
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
    <li className={`user-alert ${ended ? 'ended' : `sev-${a.severity}`} ${unread ? 'unread' : 'read'}`} aria-labelledby={titleId} data-alert-id={a.id}>
      <div className="row-between">
        <h2 id={titleId} className="h3">
          {unread && <span className="unread-dot" aria-hidden="true" />}
          {detailLink ? <Link to={`/alerts/${a.id}`}>{a.title}</Link> : a.title}
          {unread && <span className="visually-hidden"> (unread)</span>}
        </h2>
        {ended ? <EndedBadge alert={a} /> : <SeverityBadge severity={a.severity} />}
      </div>
      {ended ? (
        <EndedState alert={a} />
      ) : (
        <>
          {change && <p className="change-line">{change}</p>}
          <p className="pre-wrap" style={{ margin: 0 }}>
            {a.message}
          </p>
        </>
      )}
      <p className="small muted row" style={{ margin: 0 }}>
        <span>{CATEGORY_LABELS[a.category]}</span>
        {a.locationName && (
          <span className="icon-text">
            <MapPin aria-hidden="true" size={14} /> {a.locationName}
          </span>
        )}
        <span title={formatDateTime(since)}>{relativeAge(since, now)}</span>
        {a.expiresAt && !ended && <span>Until {formatDateTime(a.expiresAt)}</span>}
        {a.read && (
          <span className="badge badge-success">
            <Check aria-hidden="true" size={14} /> Safe{a.readAt ? ` · ${relativeAge(a.readAt, now)}` : ''}
          </span>
        )}
      </p>
      <div className="row">
        {/* an ended alert has nothing left to be safe from or to ask help for */}
        {!a.read && !ended && (
          <button type="button" className="btn btn-primary btn-sm" onClick={safe} disabled={marking.isLoading} aria-label={`I'm Safe: ${a.title}`}>
            I'm Safe
          </button>
        )}
        {!ended && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setHelpOpen(true)} aria-label={`Request help: ${a.title}`}>
            Request Help
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-sm" onClick={copy} aria-label={`Copy alert: ${a.title}`}>
          Copy
        </button>
        {ended && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={put}
            disabled={dismissing.isLoading}
            aria-label={`${CARD_WORDS.dismiss}: ${a.title}`}
          >
            {CARD_WORDS.dismiss}
          </button>
        )}
      </div>
      {helpOpen && <HelpDialog alert={a} onClose={() => setHelpOpen(false)} />}
    </li>
  );
}

/** "All clear" (a check) or "Ended" (a slashed circle), in the calm colour, where a live alert shows its severity. */
function EndedBadge({ alert }: { alert: UserAlert }) {
  const Icon = alert.status === 'all_clear' ? CircleCheck : CircleSlash;
  return (
    <span className="badge badge-ended">
      <Icon aria-hidden="true" size={14} /> {endedLabel(alert)}
    </span>
  );
}

/** When it ended and the closing words; what the alert said stays at hand, folded. */
function EndedState({ alert: a }: { alert: UserAlert }) {
  const at = endedAt(a);
  const closing =
    a.status === 'all_clear'
      ? (a.allClear?.message ?? lifecycleWords(a.language).allClearDefault)
      : a.status === 'cancelled'
        ? WARNING_WORDS.cancelledWords
        : WARNING_WORDS.expiredWords;
  return (
    <div className="ended-state">
      {at && <p className="ended-when">{a.status === 'all_clear' ? WARNING_WORDS.clearedAt(at) : WARNING_WORDS.endedAt(at)}</p>}
      <p className="pre-wrap ended-words">{closing}</p>
      <details className="ended-said">
        <summary>{WARNING_WORDS.whatItSaid}</summary>
        <p className="pre-wrap">{a.message}</p>
      </details>
    </div>
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

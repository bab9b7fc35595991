import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import { lifecycleWords, type UserAlert } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { useAppDispatch } from '@/app/hooks';
import { currentPosition } from '@/common/geolocation';
import { formatDateTime, relativeAge } from '@/common/time';
import { changeLine, endedAt, endedLabel, endedWhen, isEnded, WARNING_WORDS } from '@/features/warnings/words';
import { currentIntl, defineMessages } from '@/i18n';
import { useDismissAlertMutation, useMarkSafeMutation, useRequestHelpMutation } from './alerts.api';
import { categoryName } from './labels';
import { refreshUnreadCount } from './live';
import { alertAsText } from './notifications';
import { SeverityBadge } from './ui';
import { Check, CircleCheck, CircleSlash, MapPin, Phone } from 'lucide-react';

/** The card's words (with the layer's, WARNING_WORDS, for its change and end lines). */
export const CARD_WORDS = defineMessages({
  dismiss: { id: 'alerts.card.dismiss', defaultMessage: 'Dismiss' },
  dismissLabel: { id: 'alerts.card.dismissLabel', defaultMessage: 'Dismiss: {title}' },
  dismissed: { id: 'alerts.card.dismissed', defaultMessage: 'Alert dismissed' },
  dismissFailed: { id: 'alerts.card.dismissFailed', defaultMessage: 'Failed to dismiss the alert' },
  updated: { id: 'alerts.card.updated', defaultMessage: 'Updated' },
  /** After the title, for screen readers (hence the space first). */
  unread: { id: 'alerts.card.unread', defaultMessage: ' (unread)' },
  until: { id: 'alerts.card.until', defaultMessage: 'Until {at}' },
  safe: { id: 'alerts.card.safe', defaultMessage: 'Safe' },
  safeSince: { id: 'alerts.card.safeSince', defaultMessage: 'Safe · {age}' },
  imSafe: { id: 'alerts.card.imSafe', defaultMessage: "I'm Safe" },
  imSafeLabel: { id: 'alerts.card.imSafeLabel', defaultMessage: "I'm Safe: {title}" },
  markedSafe: { id: 'alerts.card.markedSafe', defaultMessage: 'Marked as safe' },
  markSafeFailed: { id: 'alerts.card.markSafeFailed', defaultMessage: 'Failed to update alert' },
  requestHelp: { id: 'alerts.card.requestHelp', defaultMessage: 'Request Help' },
  requestHelpLabel: { id: 'alerts.card.requestHelpLabel', defaultMessage: 'Request help: {title}' },
  copy: { id: 'alerts.card.copy', defaultMessage: 'Copy' },
  copyLabel: { id: 'alerts.card.copyLabel', defaultMessage: 'Copy alert: {title}' },
  copied: { id: 'alerts.card.copied', defaultMessage: 'Alert copied to clipboard' },
  copyFailed: { id: 'alerts.card.copyFailed', defaultMessage: 'Failed to copy alert' },
  loading: { id: 'alerts.list.loadingMore', defaultMessage: 'Loading...' },
});

const HELP_WORDS = defineMessages({
  sent: { id: 'alerts.help.sent', defaultMessage: 'Help request sent' },
  tooMany: { id: 'alerts.help.tooMany', defaultMessage: 'Too many help requests.' },
  tooManyCall: { id: 'alerts.help.tooManyCall', defaultMessage: '{reason} If you are in immediate danger, call 911.' },
  failed: { id: 'alerts.help.failed', defaultMessage: 'The help request could not be sent. Call 911 if you are in danger.' },
});

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
            {more.isFetchingNextPage ? <FormattedMessage {...CARD_WORDS.loading} /> : moreLabel}
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
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [helpOpen, setHelpOpen] = useState(false);
  const [markSafe, marking] = useMarkSafeMutation();
  const [dismiss, dismissing] = useDismissAlertMutation();
  const ended = isEnded(a, now);
  const unread = !a.read && !ended;
  const change = ended ? null : (changeLine(a, now, intl) ?? (a.version > 1 ? intl.formatMessage(CARD_WORDS.updated) : null));
  // the alert's own text (title, message, the all-clear's words) is in its language; the card around it is the reader's
  const lang = a.language ?? 'en';
  // the age of what the person reads: the latest change's, else the alert's
  const since = a.lastChange?.at ?? a.createdAt;

  async function safe() {
    try {
      await markSafe(a.id).unwrap();
      refreshUnreadCount(dispatch);
      toast.success(currentIntl().formatMessage(CARD_WORDS.markedSafe));
    } catch (err) {
      toast.error(errorMessage(err, currentIntl().formatMessage(CARD_WORDS.markSafeFailed)));
    }
  }

  async function put() {
    try {
      await dismiss(a.id).unwrap();
      toast.success(currentIntl().formatMessage(CARD_WORDS.dismissed));
      onDismissed?.();
    } catch (err) {
      toast.error(errorMessage(err, currentIntl().formatMessage(CARD_WORDS.dismissFailed)));
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(alertAsText(a, currentIntl()));
      toast.success(currentIntl().formatMessage(CARD_WORDS.copied));
    } catch {
      toast.error(currentIntl().formatMessage(CARD_WORDS.copyFailed));
    }
  }

  return (
    <li className={`user-alert ${ended ? 'ended' : `sev-${a.severity}`} ${unread ? 'unread' : 'read'}`} aria-labelledby={titleId} data-alert-id={a.id}>
      <div className="row-between">
        <h2 id={titleId} className="h3">
          {unread && <span className="unread-dot" aria-hidden="true" />}
          {detailLink ? (
            <Link to={`/alerts/${a.id}`} lang={lang}>
              {a.title}
            </Link>
          ) : (
            <span lang={lang}>{a.title}</span>
          )}
          {/* read with the title: "Flash flood warning (unread)" */}
          {unread && <span className="visually-hidden">{intl.formatMessage(CARD_WORDS.unread)}</span>}
        </h2>
        {ended ? <EndedBadge alert={a} /> : <SeverityBadge severity={a.severity} />}
      </div>
      {ended ? (
        <EndedState alert={a} />
      ) : (
        <>
          {change && <p className="change-line">{change}</p>}
          <p className="pre-wrap" style={{ margin: 0 }} lang={lang}>
            {a.message}
          </p>
        </>
      )}
      <p className="small muted row" style={{ margin: 0 }}>
        <span>{categoryName(a.category, intl)}</span>
        {a.locationName && (
          <span className="icon-text">
            <MapPin aria-hidden="true" size={14} /> {a.locationName}
          </span>
        )}
        <span title={formatDateTime(since, intl)}>{relativeAge(since, now, intl)}</span>
        {a.expiresAt && !ended && <span>{intl.formatMessage(CARD_WORDS.until, { at: formatDateTime(a.expiresAt, intl) })}</span>}
        {a.read && (
          <span className="badge badge-success">
            <Check aria-hidden="true" size={14} />
            {a.readAt ? intl.formatMessage(CARD_WORDS.safeSince, { age: relativeAge(a.readAt, now, intl) }) : intl.formatMessage(CARD_WORDS.safe)}
          </span>
        )}
      </p>
      <div className="row">
        {/* an ended alert has nothing left to be safe from or to ask help for */}
        {!a.read && !ended && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={safe}
            disabled={marking.isLoading}
            aria-label={intl.formatMessage(CARD_WORDS.imSafeLabel, { title: a.title })}
          >
            {intl.formatMessage(CARD_WORDS.imSafe)}
          </button>
        )}
        {!ended && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => setHelpOpen(true)}
            aria-label={intl.formatMessage(CARD_WORDS.requestHelpLabel, { title: a.title })}
          >
            {intl.formatMessage(CARD_WORDS.requestHelp)}
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-sm" onClick={copy} aria-label={intl.formatMessage(CARD_WORDS.copyLabel, { title: a.title })}>
          {intl.formatMessage(CARD_WORDS.copy)}
        </button>
        {ended && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={put}
            disabled={dismissing.isLoading}
            aria-label={intl.formatMessage(CARD_WORDS.dismissLabel, { title: a.title })}
          >
            {intl.formatMessage(CARD_WORDS.dismiss)}
          </button>
        )}
      </div>
      {helpOpen && <HelpDialog alert={a} onClose={() => setHelpOpen(false)} />}
    </li>
  );
}

/** "All clear" (a check) or "Ended" (a slashed circle), in the calm colour, where a live alert shows its severity. */
function EndedBadge({ alert }: { alert: UserAlert }) {
  const intl = useIntl();
  const Icon = alert.status === 'all_clear' ? CircleCheck : CircleSlash;
  return (
    <span className="badge badge-ended">
      <Icon aria-hidden="true" size={14} /> {endedLabel(alert, intl)}
    </span>
  );
}

/**
 * When it ended and the closing words; what the alert said stays at hand, folded. The all-clear's words are part of
 * the alert's text (the admin's, or Beacon's default in the alert's language); an expiry's or a cancellation's are
 * Beacon's, in the reader's language.
 */
function EndedState({ alert: a }: { alert: UserAlert }) {
  const intl = useIntl();
  const at = endedAt(a);
  const lang = a.language ?? 'en';
  const closing =
    a.status === 'all_clear'
      ? { text: a.allClear?.message || lifecycleWords(lang).allClearDefault, lang }
      : { text: intl.formatMessage(a.status === 'cancelled' ? WARNING_WORDS.cancelledWords : WARNING_WORDS.expiredWords), lang: undefined };
  return (
    <div className="ended-state">
      {at && <p className="ended-when">{endedWhen(a, at, intl)}</p>}
      <p className="pre-wrap ended-words" lang={closing.lang}>
        {closing.text}
      </p>
      <details className="ended-said">
        <summary>{intl.formatMessage(WARNING_WORDS.whatItSaid)}</summary>
        <p className="pre-wrap" lang={lang}>
          {a.message}
        </p>
      </details>
    </div>
  );
}

function HelpDialog({ alert, onClose }: { alert: UserAlert; onClose: () => void }) {
  const id = useId();
  const intl = useIntl();
  const [message, setMessage] = useState('');
  const [shareLocation, setShareLocation] = useState(true);
  const [requestHelp, { isLoading }] = useRequestHelpMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    // without a position the request still goes out
    const position = shareLocation ? await currentPosition() : null;
    const t = currentIntl();
    try {
      await requestHelp({ id: alert.id, message: message.trim() || undefined, ...(position ?? {}) }).unwrap();
      toast.success(t.formatMessage(HELP_WORDS.sent));
      onClose();
    } catch (err) {
      // the server's wait alone would leave someone in danger with nothing to do meanwhile
      const limited = (err as Partial<ApiError> | undefined)?.code === 'rate_limited';
      toast.error(
        limited
          ? t.formatMessage(HELP_WORDS.tooManyCall, { reason: errorMessage(err, t.formatMessage(HELP_WORDS.tooMany)) })
          : errorMessage(err, t.formatMessage(HELP_WORDS.failed)),
      );
    }
  }

  return (
    <div className="modal-backdrop" role="presentation" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <form className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} onSubmit={submit}>
        <h2 id={`${id}-title`}>
          <FormattedMessage id="alerts.help.title" defaultMessage="Request help" />
        </h2>
        <p className="small">
          <FormattedMessage
            id="alerts.help.intro"
            defaultMessage="Responders see your request with this alert. <strong>If you are in immediate danger, call 911.</strong>"
            values={{ strong: (chunks) => <strong>{chunks}</strong> }}
          />
        </p>
        <div className="field">
          <label htmlFor={`${id}-message`}>
            <FormattedMessage id="alerts.help.messageLabel" defaultMessage="What do you need? (optional)" />
          </label>
          <textarea id={`${id}-message`} rows={3} maxLength={1000} value={message} onChange={(e) => setMessage(e.target.value)} autoFocus />
        </div>
        <label className="checkbox checkbox-line">
          <input type="checkbox" checked={shareLocation} onChange={(e) => setShareLocation(e.target.checked)} />
          <FormattedMessage id="alerts.help.shareLocation" defaultMessage="Share my current location" />
        </label>
        <div className="row-between">
          <a href="tel:911" className="btn call-911">
            <Phone aria-hidden="true" size={16} /> <FormattedMessage id="alerts.help.call911" defaultMessage="Call 911" />
          </a>
          <div className="row">
            <button type="button" className="btn btn-outline" onClick={onClose}>
              <FormattedMessage id="alerts.help.close" defaultMessage="Close" />
            </button>
            <button type="submit" className="btn btn-primary" disabled={isLoading}>
              {isLoading
                ? intl.formatMessage({ id: 'alerts.help.sending', defaultMessage: 'Sending...' })
                : intl.formatMessage({ id: 'alerts.help.send', defaultMessage: 'Send Help Request' })}
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}

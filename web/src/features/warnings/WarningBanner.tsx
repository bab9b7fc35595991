import { useId } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { Link } from 'react-router-dom';
import { CircleCheck, CircleSlash, Info, TriangleAlert, X } from 'lucide-react';
import { lifecycleWords } from '@beacon/contracts';
import { severityName } from '@/features/alerts/labels';
import { defineMessages } from '@/i18n';
import { dismissAnnouncement, type Announcement } from './announcements';
import { changeLine, updatedAgo, WARNING_WORDS as W } from './words';

const BANNER = defineMessages({
  kindAndSeverity: { id: 'warnings.banner.kindAndSeverity', defaultMessage: '<strong>{kind}</strong> · {severity}' },
});

/** How many banners show at once; the rest are behind "N more" (the alerts page). */
export const BANNERS_SHOWN = 3;

/** The banners at the top of every page (over it; `inline`: in its flow): the newest few, each dismissable. */
export function WarningBanners({ items, now, inline = false }: { items: Announcement[]; now: Date; inline?: boolean }) {
  const intl = useIntl();
  if (items.length === 0) return null;
  const hidden = items.length - BANNERS_SHOWN;
  return (
    <section className={inline ? 'warning-banners inline' : 'warning-banners'} aria-label={intl.formatMessage(W.regionLabel)}>
      {items.slice(0, BANNERS_SHOWN).map((item) => (
        <WarningBanner key={item.key} item={item} now={now} />
      ))}
      {hidden > 0 && (
        <Link to="/alerts" className="warning-more">
          {intl.formatMessage(W.moreWarnings, { n: hidden })}
        </Link>
      )}
    </section>
  );
}

/**
 * What the banner says under the title: what changed and when, the closing words of an end, or nothing new. The
 * alert's own words (its message, the all-clear's) are in the alert's language, `lang`; Beacon's are the reader's.
 */
function detailOf({ kind, alert }: Announcement, now: Date, intl: IntlShape): { text: string; lang?: string } | null {
  const lang = alert.language ?? 'en';
  if (kind === 'update') return { text: changeLine(alert, now, intl) ?? updatedAgo(alert.lastChange?.at ?? alert.createdAt, now, intl) };
  // the all-clear's closing words belong to the alert's text: Beacon's default ones in the alert's language
  if (kind === 'all_clear') return { text: alert.allClear?.message || lifecycleWords(lang).allClearDefault, lang };
  if (kind === 'ended') return { text: intl.formatMessage(alert.status === 'cancelled' ? W.cancelledWords : W.expiredWords) };
  return alert.message ? { text: alert.message, lang } : null;
}

const HEADINGS = { new: W.newAlert, update: W.updatedAlert, all_clear: W.allClear, ended: W.ended } as const;

/**
 * One alert's news. A warning (new, updated) is an ARIA alert, read out at once; an end (all clear, ended) is a
 * status, calm in colour and in what it says, and so is an alert the person's quiet hours or digest hold.
 */
export function WarningBanner({ item, now }: { item: Announcement; now: Date }) {
  const id = useId();
  const intl = useIntl();
  const { kind, alert } = item;
  const lang = alert.language ?? 'en';
  const calm = kind === 'all_clear' || kind === 'ended';
  const heading = intl.formatMessage(kind === 'ended' && alert.status === 'cancelled' ? W.cancelled : HEADINGS[kind]);
  const Icon = kind === 'all_clear' ? CircleCheck : kind === 'ended' ? CircleSlash : alert.severity === 'low' ? Info : TriangleAlert;
  const tone = calm ? `warning-calm` : `warning-sev-${alert.severity}`;
  const detail = detailOf(item, now, intl);
  return (
    <div className={`warning-banner ${tone}`} role={calm || item.held ? 'status' : 'alert'} aria-labelledby={`${id}-kind ${id}-title`} data-alert-id={alert.id}>
      <Icon className="warning-icon" aria-hidden="true" size={22} />
      <div className="warning-text">
        <p className="warning-kind" id={`${id}-kind`}>
          {calm ? (
            <strong>{heading}</strong>
          ) : (
            intl.formatMessage(BANNER.kindAndSeverity, {
              strong: (chunks) => <strong>{chunks}</strong>,
              kind: heading,
              severity: severityName(alert.severity, intl),
            })
          )}
        </p>
        <p className="warning-title" id={`${id}-title`} lang={lang}>
          {alert.title}
        </p>
        {detail && (
          <p className="warning-detail" lang={detail.lang}>
            {detail.text}
          </p>
        )}
        {item.held && <p className="warning-held">{intl.formatMessage(W.heldNote)}</p>}
        <Link
          to={`/alerts/${alert.id}`}
          className="warning-link"
          aria-label={intl.formatMessage(W.viewLabel, { title: alert.title })}
          onClick={() => dismissAnnouncement(item.key)}
        >
          {intl.formatMessage(W.view)}
        </Link>
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-sm warning-dismiss"
        aria-label={intl.formatMessage(W.dismissLabel, { title: alert.title })}
        onClick={() => dismissAnnouncement(item.key)}
      >
        <X aria-hidden="true" size={18} />
      </button>
    </div>
  );
}

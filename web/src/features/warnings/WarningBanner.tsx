import { useId } from 'react';
import { Link } from 'react-router-dom';
import { CircleCheck, CircleSlash, Info, TriangleAlert, X } from 'lucide-react';
import { lifecycleWords, SEVERITY_INFO } from '@beacon/contracts';
import { dismissAnnouncement, type Announcement } from './announcements';
import { changeLine, updatedAgo, WARNING_WORDS as W } from './words';

/** How many banners show at once; the rest are behind "N more" (the alerts page). */
export const BANNERS_SHOWN = 3;

/** The banners at the top of every page (over it; `inline`: in its flow): the newest few, each dismissable. */
export function WarningBanners({ items, now, inline = false }: { items: Announcement[]; now: Date; inline?: boolean }) {
  if (items.length === 0) return null;
  const hidden = items.length - BANNERS_SHOWN;
  return (
    <section className={inline ? 'warning-banners inline' : 'warning-banners'} aria-label={W.regionLabel}>
      {items.slice(0, BANNERS_SHOWN).map((item) => (
        <WarningBanner key={item.key} item={item} now={now} />
      ))}
      {hidden > 0 && (
        <Link to="/alerts" className="warning-more">
          {W.moreWarnings(hidden)}: {W.viewAll}
        </Link>
      )}
    </section>
  );
}

/** What the banner says under the title: what changed and when, the closing words of an end, or nothing new. */
function detailOf({ kind, alert }: Announcement, now: Date): string | null {
  if (kind === 'update') return changeLine(alert, now) ?? updatedAgo(alert.lastChange?.at ?? alert.createdAt, now);
  if (kind === 'all_clear') return alert.allClear?.message || lifecycleWords(alert.language).allClearDefault;
  if (kind === 'ended') return alert.status === 'cancelled' ? W.cancelledWords : W.expiredWords;
  return alert.message;
}

const HEADINGS: Record<Announcement['kind'], string> = { new: W.newAlert, update: W.updatedAlert, all_clear: W.allClear, ended: W.ended };

/**
 * One alert's news. A warning (new, updated) is an ARIA alert, read out at once; an end (all clear, ended) is a
 * status, calm in colour and in what it says, and so is an alert the person's quiet hours or digest hold.
 */
export function WarningBanner({ item, now }: { item: Announcement; now: Date }) {
  const id = useId();
  const { kind, alert } = item;
  const calm = kind === 'all_clear' || kind === 'ended';
  const heading = kind === 'ended' && alert.status === 'cancelled' ? W.cancelled : HEADINGS[kind];
  const Icon = kind === 'all_clear' ? CircleCheck : kind === 'ended' ? CircleSlash : alert.severity === 'low' ? Info : TriangleAlert;
  const tone = calm ? `warning-calm` : `warning-sev-${alert.severity}`;
  const detail = detailOf(item, now);
  return (
    <div className={`warning-banner ${tone}`} role={calm || item.held ? 'status' : 'alert'} aria-labelledby={`${id}-kind ${id}-title`} data-alert-id={alert.id}>
      <Icon className="warning-icon" aria-hidden="true" size={22} />
      <div className="warning-text">
        <p className="warning-kind" id={`${id}-kind`}>
          <strong>{heading}</strong>
          {!calm && <span className="warning-severity"> · {SEVERITY_INFO[alert.severity].label}</span>}
        </p>
        <p className="warning-title" id={`${id}-title`}>
          {alert.title}
        </p>
        {detail && <p className="warning-detail">{detail}</p>}
        {item.held && <p className="warning-held">{W.heldNote}</p>}
        <Link to={`/alerts/${alert.id}`} className="warning-link" aria-label={`${W.view}: ${alert.title}`} onClick={() => dismissAnnouncement(item.key)}>
          {W.view}
        </Link>
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-sm warning-dismiss"
        aria-label={`${W.dismiss}: ${alert.title}`}
        onClick={() => dismissAnnouncement(item.key)}
      >
        <X aria-hidden="true" size={18} />
      </button>
    </div>
  );
}

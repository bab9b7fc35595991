import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { MapPin, Phone, TriangleAlert } from 'lucide-react';
import type { Announcement } from './announcements';
import { SpeakingControl } from './SpeakingIndicator';
import { changeLine, WARNING_WORDS as W } from './words';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A critical alert in effect takes the whole screen until the person acknowledges it: its instructions, Call 911, and
 * the way to the alert. A modal alertdialog: focus moves into it and stays there (Tab wraps; Escape does not close it),
 * the page behind is inert, and focus goes back where it was once it is acknowledged.
 */
export function CriticalTakeover({ item, now, onAcknowledge }: { item: Announcement; now: Date; onAcknowledge: () => void }) {
  const id = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const intl = useIntl();
  const { alert } = item;
  // the alert's own text is in its language; Beacon's words around it are the reader's
  const lang = alert.language ?? 'en';
  const change = item.kind === 'update' ? changeLine(alert, now, intl) : null;

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const page = document.getElementById('root');
    page?.setAttribute('inert', '');
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    dialog.current?.focus();
    // Focus that leaves the dialog (a click on the backdrop, a browser without inert) is brought back.
    const keepFocus = (e: FocusEvent) => {
      if (dialog.current && e.target instanceof Node && !dialog.current.contains(e.target)) dialog.current.focus();
    };
    document.addEventListener('focusin', keepFocus);
    return () => {
      document.removeEventListener('focusin', keepFocus);
      page?.removeAttribute('inert');
      document.body.style.overflow = overflow;
      if (before?.isConnected) before.focus();
    };
  }, [item.key]);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === 'Escape') {
      e.preventDefault(); // acknowledged only by choice
      return;
    }
    if (e.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === dialog.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div className="takeover-backdrop">
      <div
        ref={dialog}
        className="takeover"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-kind ${id}-title`}
        aria-describedby={`${id}-body`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-alert-id={alert.id}
      >
        <h2 className="takeover-kind" id={`${id}-kind`}>
          <TriangleAlert aria-hidden="true" size={28} /> {intl.formatMessage(W.criticalAlert)}
        </h2>
        <p className="takeover-title" id={`${id}-title`} lang={lang}>
          {alert.title}
        </p>
        <div id={`${id}-body`} className="takeover-body">
          {change && <p className="takeover-change">{change}</p>}
          {alert.locationName && (
            <p className="icon-text">
              <MapPin aria-hidden="true" size={16} /> {alert.locationName}
            </p>
          )}
          <p className="takeover-message pre-wrap" lang={lang}>
            {alert.message}
          </p>
          <p className="takeover-advice">{intl.formatMessage(W.takeoverAdvice)}</p>
        </div>
        <SpeakingControl />
        <div className="takeover-actions">
          <a href="tel:911" className="btn takeover-call">
            <Phone aria-hidden="true" size={18} /> {intl.formatMessage(W.call911)}
          </a>
          <button type="button" className="btn takeover-ack" onClick={onAcknowledge}>
            {intl.formatMessage(W.acknowledge)}
          </button>
          <Link to={`/alerts/${alert.id}`} className="takeover-link" onClick={onAcknowledge}>
            {intl.formatMessage(W.view)}
          </Link>
        </div>
      </div>
    </div>,
    document.body,
  );
}

import { useEffect, useRef } from 'react';
import { useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { useLocation, useMatches } from 'react-router-dom';
import { currentIntl, defineMessages } from '@/i18n';

export const APP_NAME = 'Beacon';

const TITLE = defineMessages({
  page: { id: 'app.documentTitle.page', defaultMessage: '{title} · {app}' },
  home: { id: 'app.documentTitle.home', defaultMessage: '{app} — public safety alerts' },
});

/** The document title for a route title, in the reader's language: "Alerts · Beacon"; the landing page's own title without one. */
export function documentTitle(title: string | undefined, intl: IntlShape = currentIntl()) {
  return title ? intl.formatMessage(TITLE.page, { title, app: APP_NAME }) : intl.formatMessage(TITLE.home, { app: APP_NAME });
}

/** How long a page whose code is still loading may take to show its heading before focus is left where it is. */
const HEADING_WAIT_MS = 10_000;

function focusHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('#main h1') ?? document.querySelector<HTMLElement>('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
  return true;
}

/**
 * Titles every page after its route (`handle.title`, a message) and, on every navigation after the first page, moves focus to
 * the new page's main heading, so a screen reader announces where the user landed and a keyboard user starts from
 * the top of the new page instead of the link they pressed. A page whose code loads lazily gets focus once its
 * heading appears. A link to a fragment (#question) keeps the browser's own focus and scroll.
 */
export function RouteAnnouncer() {
  const intl = useIntl();
  const matches = useMatches();
  const location = useLocation();
  const titleMessage = matches
    .map((m) => (m.handle as { title?: MessageDescriptor } | undefined)?.title)
    .filter(Boolean)
    .pop();
  // a switch of language titles the page again, in the new one
  const title = titleMessage ? intl.formatMessage(titleMessage) : undefined;
  useEffect(() => {
    document.title = documentTitle(title, intl);
  }, [title, intl]);

  const firstPage = useRef(true);
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    if (location.hash) return;
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const giveUp = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(giveUp);
    };
  }, [location.pathname, location.hash]);
  return null;
}

import { useId } from 'react';
import { useIntl } from 'react-intl';
import { WifiOff } from 'lucide-react';
import { defineMessages } from '@/i18n';
import { useConnectivity } from './connectivity';
import './offline.css';

const OFFLINE_PAGE_TEXT = defineMessages({
  offlineTitle: { id: 'offline.page.offlineTitle', defaultMessage: 'You are offline' },
  offlineWhy: {
    id: 'offline.page.offlineWhy',
    defaultMessage:
      'This part of Beacon has not been opened on this device yet, so it cannot be shown without a network connection. The pages you opened before still work, with the alerts Beacon last received.',
  },
  pushStill: {
    id: 'offline.page.pushStill',
    defaultMessage:
      'Alerts you turned on as push notifications still reach this device once it is back online. In an emergency, call your local emergency number.',
  },
  retry: { id: 'offline.page.retry', defaultMessage: 'Try again' },
  failedTitle: { id: 'offline.page.failedTitle', defaultMessage: 'This page could not be loaded' },
  failedWhy: { id: 'offline.page.failedWhy', defaultMessage: 'Beacon could not download this page. Reloading usually fixes it.' },
  reload: { id: 'offline.page.reload', defaultMessage: 'Reload page' },
});

/**
 * In place of a page whose code cannot be downloaded (issue #40): the offline page, never "Something went wrong", with
 * the header and menu still around it. While the network is up it is a download that failed (a build replaced since
 * the app was opened): a reload brings the new one.
 */
export function OfflineScreen({ onRetry }: { onRetry?: () => void }) {
  const titleId = useId();
  const intl = useIntl();
  const { offlineSince } = useConnectivity();
  const offline = offlineSince !== null || (typeof navigator !== 'undefined' && navigator.onLine === false);
  const t = (m: (typeof OFFLINE_PAGE_TEXT)[keyof typeof OFFLINE_PAGE_TEXT]) => intl.formatMessage(m);
  return (
    <section className="page offline-page" aria-labelledby={titleId}>
      <WifiOff aria-hidden="true" size={36} className="offline-icon" />
      <h1 id={titleId}>{t(offline ? OFFLINE_PAGE_TEXT.offlineTitle : OFFLINE_PAGE_TEXT.failedTitle)}</h1>
      <p>{t(offline ? OFFLINE_PAGE_TEXT.offlineWhy : OFFLINE_PAGE_TEXT.failedWhy)}</p>
      <p>{t(OFFLINE_PAGE_TEXT.pushStill)}</p>
      <button type="button" className="btn btn-primary" onClick={offline && onRetry ? onRetry : () => window.location.reload()}>
        {t(offline ? OFFLINE_PAGE_TEXT.retry : OFFLINE_PAGE_TEXT.reload)}
      </button>
    </section>
  );
}

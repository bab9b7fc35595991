import { useId } from 'react';
import { WifiOff } from 'lucide-react';
import { useConnectivity } from './connectivity';
import './offline.css';

const OFFLINE_PAGE_TEXT = {
  offlineTitle: 'You are offline',
  offlineWhy:
    'This part of Beacon has not been opened on this device yet, so it cannot be shown without a network connection. The pages you opened before still work, with the alerts Beacon last received.',
  pushStill: 'Alerts you turned on as push notifications still reach this device once it is back online. In an emergency, call your local emergency number.',
  retry: 'Try again',
  failedTitle: 'This page could not be loaded',
  failedWhy: 'Beacon could not download this page. Reloading usually fixes it.',
  reload: 'Reload page',
} as const;

/**
 * In place of a page whose code cannot be downloaded (issue #40): the offline page, never "Something went wrong", with
 * the header and menu still around it. While the network is up it is a download that failed (a build replaced since
 * the app was opened): a reload brings the new one.
 */
export function OfflineScreen({ onRetry }: { onRetry?: () => void }) {
  const titleId = useId();
  const { offlineSince } = useConnectivity();
  const offline = offlineSince !== null || (typeof navigator !== 'undefined' && navigator.onLine === false);
  return (
    <section className="page offline-page" aria-labelledby={titleId}>
      <WifiOff aria-hidden="true" size={36} className="offline-icon" />
      <h1 id={titleId}>{offline ? OFFLINE_PAGE_TEXT.offlineTitle : OFFLINE_PAGE_TEXT.failedTitle}</h1>
      <p>{offline ? OFFLINE_PAGE_TEXT.offlineWhy : OFFLINE_PAGE_TEXT.failedWhy}</p>
      <p>{OFFLINE_PAGE_TEXT.pushStill}</p>
      <button type="button" className="btn btn-primary" onClick={offline && onRetry ? onRetry : () => window.location.reload()}>
        {offline ? OFFLINE_PAGE_TEXT.retry : OFFLINE_PAGE_TEXT.reload}
      </button>
    </section>
  );
}

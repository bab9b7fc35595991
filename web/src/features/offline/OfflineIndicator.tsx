import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { WifiOff } from 'lucide-react';
import { defineMessages } from '@/i18n';
import { clockTime } from './clock-time';
import { useConnectivity } from './connectivity';
import './offline.css';

const OFFLINE_TEXT = defineMessages({
  since: {
    id: 'offline.indicator.since',
    defaultMessage:
      '<strong>You are offline.</strong> Beacon shows what it last knew and catches up when you are back online. <times>Offline since {since}.</times>',
  },
  sinceAndUpdated: {
    id: 'offline.indicator.sinceAndUpdated',
    defaultMessage:
      '<strong>You are offline.</strong> Beacon shows what it last knew and catches up when you are back online. <times>Offline since {since}, last updated {updated}.</times>',
  },
});

/**
 * The shell's offline indicator (issue #40), above every page: offline since when, and how old what the screen shows
 * is. The live region is always there, empty while online, so a screen reader hears the change when it comes.
 */
export function OfflineIndicator() {
  const intl = useIntl();
  const { offlineSince, lastUpdatedAt } = useConnectivity();
  const tags = {
    strong: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
    times: (chunks: ReactNode[]) => <span className="offline-times">{chunks}</span>,
  };
  return (
    <div className="offline-indicator" role="status" aria-live="polite" data-offline={offlineSince !== null || undefined}>
      {offlineSince !== null && (
        <>
          <WifiOff aria-hidden="true" size={18} className="offline-icon" />
          <p>
            {lastUpdatedAt === null
              ? intl.formatMessage(OFFLINE_TEXT.since, { ...tags, since: clockTime(offlineSince, undefined, intl) })
              : intl.formatMessage(OFFLINE_TEXT.sinceAndUpdated, {
                  ...tags,
                  since: clockTime(offlineSince, undefined, intl),
                  updated: clockTime(lastUpdatedAt, undefined, intl),
                })}
          </p>
        </>
      )}
    </div>
  );
}

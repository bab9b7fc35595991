import { WifiOff } from 'lucide-react';
import { clockTime } from './clock-time';
import { useConnectivity } from './connectivity';
import './offline.css';

const OFFLINE_TEXT = {
  title: 'You are offline.',
  keeping: 'Beacon shows what it last knew and catches up when you are back online.',
  since: (time: string) => `Offline since ${time}`,
  updated: (time: string) => `last updated ${time}`,
} as const;

/**
 * The shell's offline indicator (issue #40), above every page: offline since when, and how old what the screen shows
 * is. The live region is always there, empty while online, so a screen reader hears the change when it comes.
 */
export function OfflineIndicator() {
  const { offlineSince, lastUpdatedAt } = useConnectivity();
  return (
    <div className="offline-indicator" role="status" aria-live="polite" data-offline={offlineSince !== null || undefined}>
      {offlineSince !== null && (
        <>
          <WifiOff aria-hidden="true" size={18} className="offline-icon" />
          <p>
            <strong>{OFFLINE_TEXT.title}</strong> {OFFLINE_TEXT.keeping}{' '}
            <span className="offline-times">
              {OFFLINE_TEXT.since(clockTime(offlineSince))}
              {lastUpdatedAt !== null && `, ${OFFLINE_TEXT.updated(clockTime(lastUpdatedAt))}`}.
            </span>
          </p>
        </>
      )}
    </div>
  );
}

import { useCallback, useRef } from 'react';
import type { AlertProgress } from '@beacon/contracts';
import { useSocketEvent } from '@/app/socket';
import { useHelpRequestsQuery } from './alerts-admin.api';

/** How often the count is asked again without a live event (a help request also pushes one). */
export const OPEN_HELP_POLL_MS = 30_000;

/**
 * The admin menu's count of open help requests, beside the Help Requests link. Asked again every 30 s and at once
 * when an alert's progress event says its help requests changed (a new one, or one resolved). Nothing shows at zero.
 */
export function OpenHelpRequestsBadge() {
  const { data, refetch } = useHelpRequestsQuery(
    { page: 1, pageSize: 1, status: 'open' },
    { pollingInterval: OPEN_HELP_POLL_MS, skipPollingIfUnfocused: true },
  );
  const seen = useRef(new Map<string, string>());
  const onProgress = useCallback(
    (p: AlertProgress) => {
      if (!p.responses) return;
      const now = `${p.responses.needHelp}/${p.responses.helpOpen}`;
      const before = seen.current.get(p.alertId);
      seen.current.set(p.alertId, now);
      // First heard of this alert: only its help requests matter; afterwards, any change of them.
      if (before === undefined ? p.responses.needHelp > 0 : before !== now) void refetch();
    },
    [refetch],
  );
  useSocketEvent('alert:progress', onProgress);

  const open = data?.total ?? 0;
  if (open <= 0) return null;
  return (
    <>
      <span className="nav-count" aria-hidden="true">
        {open > 99 ? '99+' : open}
      </span>
      <span className="visually-hidden">
        {' '}
        ({open} open {open === 1 ? 'request' : 'requests'})
      </span>
    </>
  );
}

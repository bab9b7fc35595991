import { useCallback } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { useSocketEvent } from '@/app/socket';
import { moderationApi, PENDING_COUNT_POLL_MS, PENDING_COUNT_TAG, useModerationQueueCountQuery } from './moderation.api';
import './moderation.css';

/**
 * The admin menu's count of reports waiting for moderation, beside the Moderation link. Asked again every 30 s,
 * at once when the admins room hears of a new report, and after every verification or rejection (same tag).
 * Nothing shows while the count is zero or unknown.
 */
export function PendingReportsBadge() {
  const dispatch = useAppDispatch();
  const { data } = useModerationQueueCountQuery(undefined, { pollingInterval: PENDING_COUNT_POLL_MS, skipPollingIfUnfocused: true });
  const onReported = useCallback(() => {
    dispatch(moderationApi.util.invalidateTags([PENDING_COUNT_TAG]));
  }, [dispatch]);
  useSocketEvent('incident:reported', onReported);

  const pending = data?.pending ?? 0;
  if (pending <= 0) return null;
  return (
    <>
      <span className="nav-count" aria-hidden="true">
        {pending > 99 ? '99+' : pending}
      </span>
      <span className="visually-hidden">
        {' '}
        ({pending} {pending === 1 ? 'report' : 'reports'} waiting)
      </span>
    </>
  );
}

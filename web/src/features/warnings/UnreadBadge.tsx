import { useAppSelector } from '@/app/hooks';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { useUnreadCountQuery } from '@/features/alerts/alerts.api';
import { WARNING_WORDS as W } from './words';

/**
 * The person's unread alerts in effect, beside every "Alerts" entry (header, phone menu and bottom bar, dashboard
 * sidebar); nothing when there are none. The number is shown; its words are read with the link's name.
 */
export function UnreadBadge() {
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  const { data } = useUnreadCountQuery(undefined, { skip: !signedIn });
  const count = data?.count ?? 0;
  if (!signedIn || count <= 0) return null;
  return (
    <>
      <span className="nav-count unread-count" aria-hidden="true" data-count={count}>
        {count > 99 ? '99+' : count}
      </span>
      <span className="visually-hidden"> ({W.unread(count)})</span>
    </>
  );
}

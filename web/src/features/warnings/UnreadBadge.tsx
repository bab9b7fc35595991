import { useIntl } from 'react-intl';
import { useAppSelector } from '@/app/hooks';
import { selectAuthStatus } from '@/features/auth/auth.slice';
import { useUnreadCountQuery } from '@/features/alerts/alerts.api';
import { defineMessages } from '@/i18n';

const BADGE = defineMessages({
  /** More than 99: the badge keeps its size. */
  overflow: { id: 'warnings.unread.overflow', defaultMessage: '{n}+' },
  /** Read with the link's name, after it: "My Alerts (3 unread)" (hence the space first). */
  spoken: { id: 'warnings.unread.spoken', defaultMessage: ' ({n, plural, one {# unread} other {# unread}})' },
});

/**
 * The person's unread alerts in effect, beside every "Alerts" entry (header, phone menu and bottom bar, dashboard
 * sidebar); nothing when there are none. The number is shown; its words are read with the link's name.
 */
export function UnreadBadge() {
  const intl = useIntl();
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  const { data } = useUnreadCountQuery(undefined, { skip: !signedIn });
  const count = data?.count ?? 0;
  if (!signedIn || count <= 0) return null;
  return (
    <>
      <span className="nav-count unread-count" aria-hidden="true" data-count={count}>
        {count > 99 ? intl.formatMessage(BADGE.overflow, { n: 99 }) : intl.formatNumber(count)}
      </span>
      <span className="visually-hidden">{intl.formatMessage(BADGE.spoken, { n: count })}</span>
    </>
  );
}

import { useEffect, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Severity, UserAlert } from '@beacon/contracts';
import { useAppDispatch } from '@/app/hooks';
import { Spinner } from '@/common/Spinner';
import { isEnded } from '@/features/warnings/words';
import { refreshUnreadCount } from './live';
import { useNow } from '@/common/useNow';
import { useMarkSafeMutation, useMyAlertsInfiniteQuery, usePreferencesQuery, type MyAlertsArgs } from './alerts.api';
import { CARD_WORDS, UserAlertList } from './UserAlertCard';
import { LoadError, SeveritySelect } from './ui';
import { usePushRegistration } from './useAlerting';
import toast from 'react-hot-toast';
import { errorMessage } from '@/app/api';
import { currentIntl, defineMessages } from '@/i18n';
import './alerts.css';
import { Phone } from 'lucide-react';
import { LocationBanner } from './LocationOnboarding';

/** Flattens the loaded pages, newest first, without the duplicates a live prepend can cause. */
export function flattenPages(pages: { items: UserAlert[] }[] | undefined): UserAlert[] {
  const seen = new Set<string>();
  const out: UserAlert[] = [];
  for (const p of pages ?? [])
    for (const a of p.items)
      if (!seen.has(a.id)) {
        seen.add(a.id);
        out.push(a);
      }
  return out;
}

/** Debounces a typed value so a search runs once the user pauses. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

const PAGE_WORDS = defineMessages({
  loading: { id: 'alerts.page.loading', defaultMessage: 'Loading alerts' },
  loadFailed: { id: 'alerts.page.loadFailed', defaultMessage: 'Failed to load alerts' },
  call911: { id: 'alerts.page.call911', defaultMessage: 'Call 911' },
  imSafe: { id: 'alerts.page.imSafe', defaultMessage: "I'm Safe" },
});

/** /alerts: the user's emergency alerts, live (the warning layer, features/warnings, keeps the cached list current). */
export function UserAlertsPage() {
  const id = useId();
  const intl = useIntl();
  const now = useNow();
  const [severity, setSeverity] = useState<Severity | ''>('');
  const [searchText, setSearchText] = useState('');
  const [unread, setUnread] = useState(false);
  const search = useDebounced(searchText.trim());
  const args: MyAlertsArgs = { severity, search, unread };
  const query = useMyAlertsInfiniteQuery(args);
  const alerts = useMemo(() => flattenPages(query.data?.pages), [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const push = usePushRegistration();
  const [markSafe] = useMarkSafeMutation();
  const dispatch = useAppDispatch();
  // What decides the cards above the list (the home-location banner, the critical banner) loads first: until it has,
  // nothing is drawn below the header, so no card appears above content already on screen (issue #35).
  const prefs = usePreferencesQuery();
  const settled = !prefs.isLoading && !query.isLoading;

  const critical = alerts.find((a) => a.severity === 'critical' && !a.read && !isEnded(a, now));
  const filtered = Boolean(severity || search || unread);

  return (
    <section className="page" aria-labelledby="user-alerts-title">
      <header className="page-header">
        <div>
          <h1 id="user-alerts-title">
            <FormattedMessage id="alerts.page.title" defaultMessage="Emergency Alerts" />
          </h1>
          <p className="muted">
            <FormattedMessage id="alerts.page.intro" defaultMessage="Alerts for your area, newest first. New alerts appear here as they are issued." />
          </p>
        </div>
        <div className="row">
          <button type="button" className="btn btn-outline" onClick={() => query.refetch()} disabled={query.isFetching}>
            {query.isFetching && !query.isLoading
              ? intl.formatMessage({ id: 'alerts.page.refreshing', defaultMessage: 'Refreshing...' })
              : intl.formatMessage({ id: 'alerts.page.refresh', defaultMessage: 'Refresh' })}
          </button>
          <a href="tel:911" className="btn call-911">
            <Phone aria-hidden="true" size={16} /> {intl.formatMessage(PAGE_WORDS.call911)}
          </a>
        </div>
      </header>

      {!settled ? (
        <div className="empty-state">
          <Spinner label={intl.formatMessage(PAGE_WORDS.loading)} />
        </div>
      ) : (
        <>
          <LocationBanner />

          {critical && (
            <div className="critical-banner" role="alert">
              <div>
                <strong>
                  <FormattedMessage
                    id="alerts.page.criticalBanner"
                    defaultMessage="CRITICAL ALERT: {title}"
                    values={{ title: <span lang={critical.language ?? 'en'}>{critical.title}</span> }}
                  />
                </strong>
                <div className="small" lang={critical.language ?? 'en'}>
                  {critical.message}
                </div>
              </div>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-outline"
                  style={{ background: '#fff' }}
                  onClick={() =>
                    markSafe(critical.id)
                      .unwrap()
                      .then(
                        () => {
                          refreshUnreadCount(dispatch);
                          toast.success(currentIntl().formatMessage(CARD_WORDS.markedSafe));
                        },
                        (err) => toast.error(errorMessage(err, currentIntl().formatMessage(CARD_WORDS.markSafeFailed))),
                      )
                  }
                >
                  {intl.formatMessage(PAGE_WORDS.imSafe)}
                </button>
                <a href="tel:911" className="btn">
                  <Phone aria-hidden="true" size={16} /> {intl.formatMessage(PAGE_WORDS.call911)}
                </a>
              </div>
            </div>
          )}

          {push.state === 'default' && (
            <div className="card row-between" style={{ marginBottom: '1rem' }}>
              <p style={{ margin: 0 }}>
                <FormattedMessage id="alerts.page.pushOffer" defaultMessage="Get alerts even when Beacon is closed." />
              </p>
              <button type="button" className="btn btn-primary btn-sm" onClick={push.enable} disabled={push.busy}>
                <FormattedMessage id="alerts.page.enablePush" defaultMessage="Enable Notifications" />
              </button>
            </div>
          )}
          {push.state === 'denied' && (
            <p className="small muted">
              <FormattedMessage id="alerts.page.pushBlocked" defaultMessage="Notifications are blocked in this browser; alerts still appear on this page." />
            </p>
          )}

          <div
            className="card filters"
            role="search"
            aria-label={intl.formatMessage({ id: 'alerts.page.filters', defaultMessage: 'Filter alerts' })}
            style={{ marginBottom: '1rem' }}
          >
            <div className="field">
              <label htmlFor={`${id}-search`}>
                <FormattedMessage id="alerts.page.searchLabel" defaultMessage="Search alerts" />
              </label>
              <input
                id={`${id}-search`}
                type="search"
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
                placeholder={intl.formatMessage({ id: 'alerts.page.searchPlaceholder', defaultMessage: 'Title or message' })}
              />
            </div>
            <div className="field">
              <SeveritySelect id={`${id}-severity`} value={severity} onChange={setSeverity} />
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={unread} onChange={(e) => setUnread(e.target.checked)} />
              <FormattedMessage id="alerts.page.unreadOnly" defaultMessage="Unread only" />
            </label>
          </div>

          {query.isLoading ? (
            <div className="empty-state">
              <Spinner label={intl.formatMessage(PAGE_WORDS.loading)} />
            </div>
          ) : query.isError ? (
            <LoadError message={intl.formatMessage(PAGE_WORDS.loadFailed)} onRetry={query.refetch} />
          ) : alerts.length === 0 ? (
            <div className="empty-state">
              <p>
                <strong>
                  {filtered
                    ? intl.formatMessage({ id: 'alerts.page.noneFound', defaultMessage: 'No alerts found' })
                    : intl.formatMessage({ id: 'alerts.page.noneYet', defaultMessage: 'No alerts for you yet' })}
                </strong>
              </p>
              <p>
                {filtered
                  ? intl.formatMessage({ id: 'alerts.page.noneFoundHint', defaultMessage: 'Try adjusting your search or filters' })
                  : intl.formatMessage({ id: 'alerts.page.noneYetHint', defaultMessage: 'When an alert is issued for your area, it appears here right away.' })}
              </p>
            </div>
          ) : (
            <>
              <p className="small muted" aria-live="polite">
                <FormattedMessage id="alerts.page.total" defaultMessage="{total, plural, one {# alert} other {# alerts}}" values={{ total }} />
              </p>
              <UserAlertList
                alerts={alerts}
                now={now}
                label={intl.formatMessage({ id: 'alerts.page.listLabel', defaultMessage: 'Your alerts' })}
                moreLabel={intl.formatMessage({ id: 'alerts.page.loadMore', defaultMessage: 'Load More' })}
                more={query}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}

import { useMemo } from 'react';
import { alertActivity, mergeActivity, reportActivity } from './activity';
import { useActivityAlertsInfiniteQuery, useActivityReportsInfiniteQuery } from './dashboard.api';

/**
 * The signed-in user's activity from their real data: alerts they received and reports they made.
 * A source that fails is left out (the other still shows) and reported through `failed`.
 */
export function useActivity() {
  const alerts = useActivityAlertsInfiniteQuery();
  const reports = useActivityReportsInfiniteQuery();

  const merged = useMemo(() => mergeActivity([
    { items: alerts.isError ? [] : (alerts.data?.pages ?? []).flatMap((p) => p.items).map(alertActivity), hasMore: !alerts.isError && alerts.hasNextPage },
    { items: reports.isError ? [] : (reports.data?.pages ?? []).flatMap((p) => p.items).map(reportActivity), hasMore: !reports.isError && reports.hasNextPage },
  ]), [alerts.data, alerts.isError, alerts.hasNextPage, reports.data, reports.isError, reports.hasNextPage]);

  const reportPages = reports.data?.pages ?? [];
  return {
    ...merged,
    loading: alerts.isLoading || reports.isLoading,
    loadingMore: alerts.isFetchingNextPage || reports.isFetchingNextPage,
    failed: { alerts: alerts.isError, reports: reports.isError },
    /** Exact totals from the services (null while unknown). */
    reportsTotal: reports.isSuccess ? reportPages[0]?.total ?? 0 : null,
    reports: reportPages.flatMap((p) => p.items),
    allReportsLoaded: reports.isSuccess && !reports.hasNextPage,
    alertItems: (alerts.data?.pages ?? []).flatMap((p) => p.items),
    loadMore: () => {
      if (alerts.hasNextPage) void alerts.fetchNextPage();
      if (reports.hasNextPage) void reports.fetchNextPage();
    },
  };
}

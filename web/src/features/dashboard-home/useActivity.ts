import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { alertActivity, communityActivity, mergeActivity, reportActivity } from './activity';
import { useActivityAlertsInfiniteQuery, useActivityCommunityInfiniteQuery, useActivityReportsInfiniteQuery } from './dashboard.api';

/**
 * The signed-in user's activity from their real data: alerts they received, reports they made, and their
 * community posts, comments and levels reached. A source that fails is left out (the others still show)
 * and reported through `failed`.
 */
export function useActivity() {
  const alerts = useActivityAlertsInfiniteQuery();
  const reports = useActivityReportsInfiniteQuery();
  const community = useActivityCommunityInfiniteQuery();
  // the items' words are made here, in the reader's language: a switch remakes them
  const intl = useIntl();

  const merged = useMemo(
    () =>
      mergeActivity([
        {
          items: alerts.isError ? [] : (alerts.data?.pages ?? []).flatMap((p) => p.items).map((a) => alertActivity(a, intl)),
          hasMore: !alerts.isError && alerts.hasNextPage,
        },
        {
          items: reports.isError ? [] : (reports.data?.pages ?? []).flatMap((p) => p.items).map((r) => reportActivity(r, intl)),
          hasMore: !reports.isError && reports.hasNextPage,
        },
        {
          items: community.isError ? [] : (community.data?.pages ?? []).flatMap((p) => p.items).map((c) => communityActivity(c, intl)),
          hasMore: !community.isError && community.hasNextPage,
        },
      ]),
    [
      intl,
      alerts.data,
      alerts.isError,
      alerts.hasNextPage,
      reports.data,
      reports.isError,
      reports.hasNextPage,
      community.data,
      community.isError,
      community.hasNextPage,
    ],
  );

  const reportPages = reports.data?.pages ?? [];
  return {
    ...merged,
    loading: alerts.isLoading || reports.isLoading || community.isLoading,
    loadingMore: alerts.isFetchingNextPage || reports.isFetchingNextPage || community.isFetchingNextPage,
    failed: { alerts: alerts.isError, reports: reports.isError, community: community.isError },
    /** Exact totals from the services (null while unknown). */
    reportsTotal: reports.isSuccess ? (reportPages[0]?.total ?? 0) : null,
    reports: reportPages.flatMap((p) => p.items),
    allReportsLoaded: reports.isSuccess && !reports.hasNextPage,
    alertItems: (alerts.data?.pages ?? []).flatMap((p) => p.items),
    loadMore: () => {
      if (alerts.hasNextPage) void alerts.fetchNextPage();
      if (reports.hasNextPage) void reports.fetchNextPage();
      if (community.hasNextPage) void community.fetchNextPage();
    },
  };
}

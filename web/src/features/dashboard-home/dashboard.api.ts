import { api } from '@/app/api';
import type { IncidentPage, MyCommunityActivityPage, Page, UserAlert } from '@beacon/contracts';

export const ACTIVITY_PAGE_SIZE = 20;

// Named for the dashboard so they never clash with the alerts and incidents features' endpoints;
// the shared tags keep every screen's cache in step.
export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Active alerts that concern me by my preferences. */
    dashboardActiveAlerts: build.query<UserAlert[], void>({
      query: () => 'api/alerts/me/alerts/active',
      providesTags: ['MyAlerts'],
    }),
    /** Exact counts of my alerts (all, unread) without loading them: page size 1, read the total. */
    dashboardAlertCount: build.query<number, { unread: boolean }>({
      query: ({ unread }) => `api/alerts/me/alerts?page=1&pageSize=1${unread ? '&unread=true' : ''}`,
      transformResponse: (page: Page<UserAlert>) => page.total,
      providesTags: ['MyAlerts'],
    }),
    /** My alerts, newest first, a page at a time. */
    activityAlerts: build.infiniteQuery<Page<UserAlert>, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
      },
      query: ({ pageParam }) => `api/alerts/me/alerts?page=${pageParam}&pageSize=${ACTIVITY_PAGE_SIZE}`,
      providesTags: ['MyAlerts', 'Activity'],
    }),
    /** My incident reports, newest first, a page at a time. */
    activityReports: build.infiniteQuery<IncidentPage, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (last, _all, offset) => (offset + last.items.length < last.total && last.items.length > 0 ? offset + last.items.length : undefined),
      },
      query: ({ pageParam }) => `api/incidents/incidents/mine?limit=${ACTIVITY_PAGE_SIZE}&offset=${pageParam}`,
      providesTags: ['Incident', 'Activity'],
    }),
    /** My community posts, comments and levels reached, newest first. Posting and commenting invalidate 'Points'. */
    activityCommunity: build.infiniteQuery<MyCommunityActivityPage, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (last, _all, offset) => (offset + last.items.length < last.total && last.items.length > 0 ? offset + last.items.length : undefined),
      },
      query: ({ pageParam }) => `api/incidents/community/me/activity?limit=${ACTIVITY_PAGE_SIZE}&offset=${pageParam}`,
      providesTags: ['Post', 'Points', 'Activity'],
    }),
  }),
});

export const {
  useDashboardActiveAlertsQuery,
  useDashboardAlertCountQuery,
  useActivityAlertsInfiniteQuery,
  useActivityReportsInfiniteQuery,
  useActivityCommunityInfiniteQuery,
} = dashboardApi;

import { api } from '@/app/api';
import type { AdminAlert, Incident, IncidentStatus, ModerationQueueCount, ModerationQueuePage, Page } from '@beacon/contracts';

export const MODERATION_PAGE_SIZE = 20;

/** The admin menu's badge asks again this often (and at once when a new report is announced). */
export const PENDING_COUNT_POLL_MS = 30_000;

/** The badge's own tag, so a new-report notice refetches the count without reloading every incident list. */
export const PENDING_COUNT_TAG = { type: 'Incident', id: 'PENDING_COUNT' } as const;

export const moderationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Pending reports, urgent types first, then the longest waiting; each with its reporter's record (admins only). */
    moderationQueue: build.infiniteQuery<ModerationQueuePage, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (last, all) => {
          const loaded = all.reduce((n, p) => n + p.items.length, 0);
          return last.items.length > 0 && loaded < last.total ? loaded : undefined;
        },
      },
      query: ({ pageParam }) => `api/incidents/incidents/moderation-queue?limit=${MODERATION_PAGE_SIZE}&offset=${pageParam}`,
      providesTags: ['Incident'],
    }),
    /** How many reports wait for moderation (admins only). */
    moderationQueueCount: build.query<ModerationQueueCount, void>({
      query: () => 'api/incidents/incidents/moderation-queue/count',
      providesTags: ['Incident', PENDING_COUNT_TAG],
    }),
    changeIncidentStatus: build.mutation<Incident, { id: string; status: Exclude<IncidentStatus, 'pending'>; note?: string }>({
      query: ({ id, ...body }) => ({ url: `api/incidents/incidents/${id}/status`, method: 'PATCH', body }),
      invalidatesTags: ['Incident'],
    }),
    /**
     * The alert a verified incident created (the alerts service makes a draft from a verified wrong-way driver,
     * asynchronously): an empty page until it has. Admins only.
     */
    draftAlertForIncident: build.query<Page<AdminAlert>, string>({
      query: (incidentId) => ({ url: 'api/alerts', params: { incident: incidentId } }),
    }),
  }),
});

export const { useModerationQueueInfiniteQuery, useModerationQueueCountQuery, useChangeIncidentStatusMutation } = moderationApi;

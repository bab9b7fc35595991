import { api } from '@/app/api';
import type { Incident, IncidentPage, IncidentStatus } from '@beacon/contracts';

export const MODERATION_PAGE_SIZE = 20;

export const moderationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Pending reports, oldest first (admins only). */
    moderationQueue: build.infiniteQuery<IncidentPage, void, number>({
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
    changeIncidentStatus: build.mutation<Incident, { id: string; status: Exclude<IncidentStatus, 'pending'>; note?: string }>({
      query: ({ id, ...body }) => ({ url: `api/incidents/incidents/${id}/status`, method: 'PATCH', body }),
      invalidatesTags: ['Incident'],
    }),
  }),
});

export const { useModerationQueueInfiniteQuery, useChangeIncidentStatusMutation } = moderationApi;

import type { AlertReach } from '@beacon/contracts';
import { api } from '@/app/api';

/**
 * The alert page's map of reach (issue #42), injected into the one api slice beside the console's other endpoints.
 * No tag: the map reads it again itself as the alert's progress events arrive (ReachMap).
 */
export const reachApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/alerts/:id/reach: the recipients counted in cells by state, and the help requests where they were shared. */
    alertReach: build.query<AlertReach, string>({
      query: (id) => `api/alerts/${encodeURIComponent(id)}/reach`,
    }),
  }),
});

export const { useAlertReachQuery } = reachApi;

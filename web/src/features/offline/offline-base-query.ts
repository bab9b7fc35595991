import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { markReachable, markUnreachable, noteUpdated } from './connectivity';
import { keepAnswer, keptAnswer, keptRequestKey } from './kept-responses';

type FetchQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta>;

/** The signed-in person, read from the store without importing it (the store imports the API, which imports this). */
function personOf(state: unknown): string | null {
  return (state as { auth?: { user?: { id?: string } | null } }).auth?.user?.id ?? null;
}

/** A request that never reached Beacon: the network is down (an aborted request says nothing about the network). */
function unreachable(error: FetchBaseQueryError, signal: AbortSignal): boolean {
  return error.status === 'FETCH_ERROR' && !signal.aborted;
}

/**
 * Wraps the API's fetch so the app keeps what it knew (issue #40): every answer worth keeping (kept-responses.ts) is
 * kept for the signed-in person; when Beacon cannot be reached, the same request is answered with the kept copy, so
 * a list stays on screen through a Refresh, a reload or a visit to another page instead of turning into an error. It
 * also tells the offline indicator (connectivity.ts) whether Beacon answered.
 */
export function keepingOfflineCopies(fetchQuery: FetchQuery): FetchQuery {
  return async (args, api, extra) => {
    const result = await fetchQuery(args, api, extra);
    const person = personOf(api.getState());
    const key = person ? keptRequestKey(args) : null;
    if (!result.error) {
      markReachable();
      if (person && key) {
        const now = Date.now();
        keepAnswer(person, key, result.data, now);
        if (key.startsWith('api/alerts/me/alerts')) noteUpdated(now);
      }
      return result;
    }
    if (!unreachable(result.error, api.signal)) {
      markReachable();
      return result;
    }
    markUnreachable();
    const kept = person && key ? keptAnswer(person, key) : null;
    if (!kept) return result;
    if (key!.startsWith('api/alerts/me/alerts')) noteUpdated(kept.savedAt);
    return { data: kept.data, meta: result.meta };
  };
}

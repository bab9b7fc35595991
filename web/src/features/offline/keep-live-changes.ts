import type { AppStore } from '@/app/store';
import { alertsApi, queryParams } from '@/features/alerts/alerts.api';
import { requestKey, reviseAnswer } from './kept-responses';

/**
 * Keeps what the screen was told after its last fetch: an alert heard on the socket (prepended to a list, or changed
 * in it) and the preferences just saved. The fetched answers are kept by the API's base query; without this, a
 * Refresh offline would go back to the list as it was fetched, dropping the alert that came live since.
 *
 * A list page is kept under the request that fetched it (alerts.api.ts myAlerts: its arguments and page number).
 * Returns the function that stops.
 */
export function keepLiveChanges(store: AppStore): () => void {
  const written = new Map<string, unknown>();
  return store.subscribe(() => {
    const state = store.getState();
    const person = state.auth.user?.id;
    if (!person) return;
    for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'myAlerts')) {
      const data = alertsApi.endpoints.myAlerts.select(args)(state).data;
      const cacheKey = JSON.stringify(args);
      if (!data || written.get(cacheKey) === data) continue;
      written.set(cacheKey, data);
      data.pages.forEach((page, i) => reviseAnswer(person, requestKey('api/alerts/me/alerts', queryParams({ ...args, page: data.pageParams[i] })), page));
    }
    const preferences = alertsApi.endpoints.preferences.select()(state).data;
    if (preferences && written.get('preferences') !== preferences) {
      written.set('preferences', preferences);
      reviseAnswer(person, 'api/alerts/me/preferences', preferences);
    }
  });
}

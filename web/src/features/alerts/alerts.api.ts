import type { AlertPreferences, AlertSummary, GeocodeResult, Page, ReaderAlertEvent, Severity, UnreadCount, UserAlert } from '@beacon/contracts';
import { api } from '@/app/api';
import type { AppDispatch, RootState } from '@/app/store';
import { withFirstLanguage } from './language';

// The signed-in user's endpoints of the alerts service. The admin console's endpoints (features/alerts-admin,
// alerts-admin.api.ts) are injected into the same api slice and share its tags.

// ------------------------------------------------------------------ shapes the alerts service returns beyond the contracts

export interface MyAlertsArgs {
  severity?: Severity | '';
  search?: string;
  unread?: boolean;
  pageSize?: number;
}

/** Drops empty filters so the URL carries only what is set. */
export function queryParams(o: object): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== false && v !== null));
}

export type PreferencesUpdate = Partial<Omit<AlertPreferences, 'categories' | 'radiusKm' | 'quietHours' | 'methods'>> & {
  quietHours?: Partial<AlertPreferences['quietHours']>;
  methods?: Partial<AlertPreferences['methods']>;
};

export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // ---------------------------------------------------------------- the signed-in user
    /** My alerts, newest first; "Load More" fetches the next page. Live alerts are prepended to the first page. */
    myAlerts: build.infiniteQuery<Page<UserAlert>, MyAlertsArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: 'api/alerts/me/alerts', params: queryParams({ ...queryArg, page: pageParam }) }),
      providesTags: ['MyAlerts'],
    }),
    myAlert: build.query<UserAlert, string>({
      query: (id) => `api/alerts/me/alerts/${encodeURIComponent(id)}`,
      providesTags: (_res, _err, id) => [{ type: 'MyAlerts', id }],
    }),
    /** "I'm Safe": marks my deliveries of the alert read. */
    markSafe: build.mutation<{ alertId: string; read: true; readAt: string }, string>({
      query: (id) => ({ url: `api/alerts/me/alerts/${encodeURIComponent(id)}/read`, method: 'POST' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          patchMyAlert(dispatch, getState() as RootState, id, { read: true, readAt: data.readAt });
        } catch {
          // the screen shows the failure
        }
      },
    }),
    preferences: build.query<AlertPreferences, void>({
      query: () => 'api/alerts/me/preferences',
      providesTags: ['Preferences'],
    }),
    updatePreferences: build.mutation<AlertPreferences, PreferencesUpdate>({
      // The first save from any screen (e.g. the location prompt) carries the browser's language (withFirstLanguage).
      async queryFn(body, { getState }, _extra, baseQuery) {
        const saved = alertsApi.endpoints.preferences.select()(getState() as RootState).data;
        const res = await baseQuery({ url: 'api/alerts/me/preferences', method: 'PUT', body: withFirstLanguage(body, saved) });
        return res.error ? { error: res.error } : { data: res.data as AlertPreferences };
      },
      // The server's answer is the saved state: write it into the cache rather than refetching.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(alertsApi.util.upsertQueryData('preferences', undefined, data));
        } catch {
          // the screen shows the failure
        }
      },
    }),
    vapidPublicKey: build.query<{ publicKey: string }, void>({
      query: () => 'api/alerts/push/public-key',
    }),
    registerPushSubscription: build.mutation<{ id: string; endpoint: string }, PushSubscriptionJSON>({
      query: (body) => ({ url: 'api/alerts/me/push-subscriptions', method: 'POST', body }),
    }),
    /** Alerts still in effect that I have not read (issue #40): the header's and the dashboard's count. */
    unreadCount: build.query<UnreadCount, void>({
      query: () => 'api/alerts/me/alerts/unread-count',
      providesTags: ['MyAlerts'],
    }),
    /** An ended alert (all clear, expired, cancelled) put away: read, and gone from my feed. */
    dismissAlert: build.mutation<{ alertId: string; dismissedAt: string }, string>({
      query: (id) => ({ url: `api/alerts/me/alerts/${encodeURIComponent(id)}/dismiss`, method: 'POST' }),
      invalidatesTags: ['MyAlerts'],
    }),
    /** Places for a home address or place name, through the alerts service's geocoder (cached, rate-limited). */
    searchPlaces: build.query<GeocodeResult[], string>({
      query: (q) => ({ url: 'api/alerts/me/places', params: { q } }),
    }),
    /** The name of the place at a point (the device's location), or null when the geocoder knows none. */
    placeAt: build.query<GeocodeResult | null, { lat: number; lng: number }>({
      query: (p) => ({ url: 'api/alerts/me/places/reverse', params: p }),
    }),
    requestHelp: build.mutation<{ id: string }, { id: string; message?: string; lat?: number; lng?: number }>({
      query: ({ id, ...body }) => ({ url: `api/alerts/me/alerts/${encodeURIComponent(id)}/help`, method: 'POST', body }),
    }),
  }),
});

export const {
  useMyAlertsInfiniteQuery,
  useMyAlertQuery,
  useMarkSafeMutation,
  useRequestHelpMutation,
  useUnreadCountQuery,
  useDismissAlertMutation,
  useLazySearchPlacesQuery,
  useLazyPlaceAtQuery,
  usePreferencesQuery,
  useUpdatePreferencesMutation,
  useLazyVapidPublicKeyQuery,
  useRegisterPushSubscriptionMutation,
} = alertsApi;

// ------------------------------------------------------------------ live events written into the cache

/** Writes a status change into the cached copies of an alert that another feature keeps. */
export type AlertCopiesPatch = (dispatch: AppDispatch, state: RootState, s: AlertSummary) => void;

const otherCopies = new Set<AlertCopiesPatch>();

/**
 * The admin console (features/alerts-admin) registers its cached copies of alerts (lists, recent, detail) here,
 * so a status change heard on a user screen reaches them too without this feature importing the console.
 */
export function registerAlertCopies(patch: AlertCopiesPatch): void {
  otherCopies.add(patch);
}

/** What an alert's change says of it: its status (cancelled, expired, all clear) and, after an update, its new version. */
export function changedFields(s: ReaderAlertEvent): Partial<UserAlert> {
  const { id: _id, createdAt: _created, channels: _channels, ...changed } = s;
  return changed;
}

/** An alert's change (a new version, the all-clear, a cancel or expiry) reaches every cached copy, admin and user. */
export function applyAlertUpdate(dispatch: AppDispatch, state: RootState, s: ReaderAlertEvent) {
  for (const patch of otherCopies) patch(dispatch, state, s);
  // the text it brings is in its language (English on the admins' events): the cached copy says which, so the screens
  // mark it right (lang) and never keep a Spanish label on an English title
  patchMyAlert(dispatch, state, s.id, { ...changedFields(s), language: s.language ?? 'en' });
}

/** Whether any of my cached lists holds the alert. */
export function isInMyAlerts(state: RootState, id: string): boolean {
  return alertsApi.util.selectCachedArgsForQuery(state, 'myAlerts').some((args) =>
    alertsApi.endpoints.myAlerts
      .select(args)(state)
      .data?.pages.some((p) => p.items.some((a) => a.id === id)),
  );
}

/** A new alert for me: prepended to my unfiltered lists (filtered ones only when it matches). */
export function applyNewUserAlert(dispatch: AppDispatch, state: RootState, s: ReaderAlertEvent) {
  // The event is in the language of the user's preferences when the alert has it (English on the admins' events).
  const mine: UserAlert = { ...s, language: s.language ?? 'en', read: false, readAt: null };
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'myAlerts')) {
    if (args.severity && args.severity !== s.severity) continue;
    if (args.search && !`${s.title}\n${s.message}`.toLowerCase().includes(args.search.toLowerCase())) continue;
    dispatch(
      alertsApi.util.updateQueryData('myAlerts', args, (draft) => {
        if (draft.pages.some((p) => p.items.some((a) => a.id === s.id))) return;
        const first = draft.pages[0];
        if (!first) return;
        first.items.unshift(mine);
        for (const p of draft.pages) {
          p.total += 1;
          p.totalPages = Math.max(1, Math.ceil(p.total / p.pageSize));
        }
      }),
    );
  }
}

function patchMyAlert(dispatch: AppDispatch, state: RootState, id: string, changes: Partial<UserAlert>) {
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'myAlerts')) {
    dispatch(
      alertsApi.util.updateQueryData('myAlerts', args, (draft) => {
        for (const p of draft.pages) for (const a of p.items) if (a.id === id) Object.assign(a, changes);
      }),
    );
  }
  if (alertsApi.util.selectCachedArgsForQuery(state, 'myAlert').includes(id)) {
    dispatch(alertsApi.util.updateQueryData('myAlert', id, (a) => Object.assign(a, changes)));
  }
}

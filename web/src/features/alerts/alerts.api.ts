import {
  deliveryLabel, successRate,
  type AdminAlert, type AlertCategory, type AlertPreferences, type AlertProgress, type AlertStatus, type AlertSummary, type ChannelCounts,
  type DeliveryChannel, type DeliveryStatus, type HelpRequest, type Page, type Priority, type Severity, type UserAlert,
} from '@beacon/contracts';
import { api } from '@/app/api';
import type { AppDispatch, RootState } from '@/app/store';

// ------------------------------------------------------------------ shapes the alerts service returns beyond the contracts

/** POST /api/alerts: one body for the wizard (severity + category + area) and the quick form (type + priority). */
export interface CreateAlertBody {
  title: string;
  message: string;
  type?: string;
  severity?: Severity;
  priority?: Priority;
  category?: AlertCategory;
  channels: (DeliveryChannel | 'web_push')[];
  locationName?: string;
  lat?: number;
  lng?: number;
  radiusKm?: number;
  expiresAt?: string;
}

export interface AlertListArgs {
  page: number;
  pageSize?: number;
  search?: string;
  type?: string;
  priority?: Priority | '';
  status?: AlertStatus | '';
}

export interface AlertStats {
  totalSent: number;
  activeAlerts: number;
  drafts: number;
  totalDeliveries: number;
  deliveries: ChannelCounts;
  successRate: number;
  perDay: { day: string; total: number; successful: number; failed: number }[];
  timeZone: string;
}

export interface DeliveryItem {
  id: string;
  userId: string;
  channel: DeliveryChannel;
  status: DeliveryStatus;
  attempts: number;
  error: string | null;
  heldUntil: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  createdAt: string;
  /** Went out in one digest message with the user's other held alerts. */
  inDigest: boolean;
}

export interface MyAlertsArgs {
  severity?: Severity | '';
  search?: string;
  unread?: boolean;
  pageSize?: number;
}

/** Drops empty filters so the URL carries only what is set. */
function params(o: object): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== false && v !== null));
}

/** GET/PUT /api/alerts/admin/settings: secrets come back masked, never in clear. */
export interface AdminSettingsView {
  push: { enabled: boolean; username: string; apiKeySet: boolean; apiKeyMasked: string };
  webhook: { enabled: boolean; url: string };
  updatedAt: string | null;
  /** Names of the environment variables that supply these values until an admin saves them. */
  environment: string[];
}

export interface UpdateSettingsBody {
  push?: { enabled?: boolean; username?: string; apiKey?: string };
  webhook?: { enabled?: boolean; url?: string };
}

export interface ProviderCheck {
  ok: boolean;
  message: string;
  status?: number | null;
}


export interface HelpRequestsArgs {
  page: number;
  pageSize?: number;
  status?: HelpRequest['status'] | '';
}

export type PreferencesUpdate = Partial<Omit<AlertPreferences, 'categories' | 'radiusKm' | 'quietHours' | 'methods'>> & {
  quietHours?: Partial<AlertPreferences['quietHours']>;
  methods?: Partial<AlertPreferences['methods']>;
};

export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // ---------------------------------------------------------------- admin
    createAlert: build.mutation<AdminAlert, { body: CreateAlertBody; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({ url: 'api/alerts', method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }, 'AlertStats'],
    }),
    listAlerts: build.query<Page<AdminAlert>, AlertListArgs>({
      query: (args) => ({ url: 'api/alerts', params: params(args) }),
      providesTags: (res) => [{ type: 'Alert', id: 'LIST' }, ...(res?.items ?? []).map((a) => ({ type: 'Alert' as const, id: a.id }))],
    }),
    recentAlerts: build.query<AdminAlert[], number | void>({
      query: (limit) => ({ url: 'api/alerts/recent', params: params({ limit: limit ?? undefined }) }),
      providesTags: (res) => [{ type: 'Alert', id: 'LIST' }, ...(res ?? []).map((a) => ({ type: 'Alert' as const, id: a.id }))],
    }),
    alertStats: build.query<AlertStats, { tz: string; days: number }>({
      query: (args) => ({ url: 'api/alerts/stats', params: args }),
      providesTags: ['AlertStats'],
    }),
    getAlert: build.query<AdminAlert, string>({
      query: (id) => `api/alerts/${encodeURIComponent(id)}`,
      providesTags: (_res, _err, id) => [{ type: 'Alert', id }],
    }),
    alertDeliveries: build.query<Page<DeliveryItem>, { id: string; page: number; pageSize?: number; status?: DeliveryStatus | ''; channel?: DeliveryChannel | '' }>({
      query: ({ id, ...rest }) => ({ url: `api/alerts/${encodeURIComponent(id)}/deliveries`, params: params(rest) }),
      providesTags: (_res, _err, { id }) => [{ type: 'Delivery', id }],
    }),
    /** Sends a draft (e.g. the one a verified wrong-way-driver report created). */
    sendDraft: build.mutation<AdminAlert, string>({
      query: (id) => ({ url: `api/alerts/${encodeURIComponent(id)}/send`, method: 'POST' }),
      invalidatesTags: (_res, _err, id) => [{ type: 'Alert', id }, 'AlertStats'],
    }),
    cancelAlert: build.mutation<AdminAlert, string>({
      query: (id) => ({ url: `api/alerts/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (_res, _err, id) => [{ type: 'Alert', id }, { type: 'Delivery', id }, 'AlertStats'],
    }),

    // ---------------------------------------------------------------- the signed-in user
    /** My alerts, newest first; "Load More" fetches the next page. Live alerts are prepended to the first page. */
    myAlerts: build.infiniteQuery<Page<UserAlert>, MyAlertsArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: 'api/alerts/me/alerts', params: params({ ...queryArg, page: pageParam }) }),
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
      query: (body) => ({ url: 'api/alerts/me/preferences', method: 'PUT', body }),
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

    // ---------------------------------------------------------------- admin settings
    adminSettings: build.query<AdminSettingsView, void>({
      query: () => 'api/alerts/admin/settings',
      providesTags: ['AdminSettings'],
    }),
    updateAdminSettings: build.mutation<AdminSettingsView, UpdateSettingsBody>({
      query: (body) => ({ url: 'api/alerts/admin/settings', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(alertsApi.util.upsertQueryData('adminSettings', undefined, data));
        } catch {
          // the screen shows the failure
        }
      },
    }),
    testPushConnection: build.mutation<ProviderCheck, { username?: string; apiKey?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-connection', method: 'POST', body }),
    }),
    testWebhook: build.mutation<ProviderCheck, { url?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-webhook', method: 'POST', body }),
    }),
    sendTestAlert: build.mutation<{ ok: boolean; channels: DeliveryChannel[]; alert: AdminAlert }, void>({
      query: () => ({ url: 'api/alerts/admin/settings/test-alert', method: 'POST' }),
    }),
    helpRequests: build.query<Page<HelpRequest>, HelpRequestsArgs>({
      query: (args) => ({ url: 'api/alerts/admin/help-requests', params: params(args) }),
    }),
    /** The answer is the resolved request: written into every cached page rather than read again. */
    resolveHelpRequest: build.mutation<HelpRequest, string>({
      query: (id) => ({ url: `api/alerts/admin/help-requests/${encodeURIComponent(id)}/resolve`, method: 'POST' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          for (const args of alertsApi.util.selectCachedArgsForQuery(getState() as RootState, 'helpRequests')) {
            dispatch(alertsApi.util.updateQueryData('helpRequests', args, (draft) => {
              for (const h of draft.items) if (h.id === id) h.status = data.status;
            }));
          }
        } catch {
          // the screen shows the failure
        }
      },
    }),
    requestHelp: build.mutation<{ id: string }, { id: string; message?: string; lat?: number; lng?: number }>({
      query: ({ id, ...body }) => ({ url: `api/alerts/me/alerts/${encodeURIComponent(id)}/help`, method: 'POST', body }),
    }),
  }),
});

export const {
  useCreateAlertMutation, useListAlertsQuery, useRecentAlertsQuery, useAlertStatsQuery, useGetAlertQuery, useAlertDeliveriesQuery,
  useLazyAlertDeliveriesQuery, useCancelAlertMutation, useSendDraftMutation, useMyAlertsInfiniteQuery, useMyAlertQuery, useMarkSafeMutation, useRequestHelpMutation,
  usePreferencesQuery, useUpdatePreferencesMutation, useLazyVapidPublicKeyQuery, useRegisterPushSubscriptionMutation,
  useHelpRequestsQuery, useResolveHelpRequestMutation,
  useAdminSettingsQuery, useUpdateAdminSettingsMutation, useTestPushConnectionMutation, useTestWebhookMutation, useSendTestAlertMutation,
} = alertsApi;

// ------------------------------------------------------------------ live events written into the cache

/** Applies one progress event to every cached copy of that alert (lists, recent, detail). */
export function applyProgress(dispatch: AppDispatch, state: RootState, p: AlertProgress) {
  const patch = (a: AdminAlert) => {
    if (a.id !== p.alertId) return;
    a.summary = p.channels;
    a.recipients = p.recipients;
    a.deliveryLabel = deliveryLabel(p.channels, p.recipients !== null && a.status !== 'draft');
    a.successRate = successRate(p.channels);
  };
  forEachAdminCopy(dispatch, state, p.alertId, patch);
}

/** A status change (cancelled, expired) reaches every cached copy, admin and user. */
export function applyAlertUpdate(dispatch: AppDispatch, state: RootState, s: AlertSummary) {
  forEachAdminCopy(dispatch, state, s.id, (a) => {
    if (a.id === s.id) Object.assign(a, { status: s.status, expiresAt: s.expiresAt });
  });
  patchMyAlert(dispatch, state, s.id, { status: s.status, expiresAt: s.expiresAt });
}

/** A new alert for the admins' lists: prepended to the unfiltered first page and the recent list. */
export function applyNewAdminAlert(dispatch: AppDispatch, state: RootState, s: AlertSummary) {
  const fresh: AdminAlert = {
    ...s, createdBy: null, updatedAt: s.createdAt, sentAt: s.status === 'active' ? s.createdAt : null, source: 'admin',
    recipients: null, summary: {}, deliveryLabel: 'Pending', successRate: 0,
  };
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'listAlerts')) {
    if (args.page !== 1 || args.search || args.type || args.priority || args.status) continue;
    dispatch(alertsApi.util.updateQueryData('listAlerts', args, (draft) => {
      if (draft.items.some((a) => a.id === s.id)) return;
      draft.items.unshift(fresh);
      if (draft.items.length > draft.pageSize) draft.items.pop();
      draft.total += 1;
      draft.totalPages = Math.max(1, Math.ceil(draft.total / draft.pageSize));
    }));
  }
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'recentAlerts')) {
    dispatch(alertsApi.util.updateQueryData('recentAlerts', args, (draft) => {
      if (draft.some((a) => a.id === s.id)) return;
      draft.unshift(fresh);
      draft.splice(typeof args === 'number' ? args : 5);
    }));
  }
}

/** A new alert for me: prepended to my unfiltered lists (filtered ones only when it matches). */
export function applyNewUserAlert(dispatch: AppDispatch, state: RootState, s: AlertSummary) {
  const mine: UserAlert = { ...s, read: false, readAt: null };
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'myAlerts')) {
    if (args.severity && args.severity !== s.severity) continue;
    if (args.search && !`${s.title}\n${s.message}`.toLowerCase().includes(args.search.toLowerCase())) continue;
    dispatch(alertsApi.util.updateQueryData('myAlerts', args, (draft) => {
      if (draft.pages.some((p) => p.items.some((a) => a.id === s.id))) return;
      const first = draft.pages[0];
      if (!first) return;
      first.items.unshift(mine);
      for (const p of draft.pages) {
        p.total += 1;
        p.totalPages = Math.max(1, Math.ceil(p.total / p.pageSize));
      }
    }));
  }
}

function forEachAdminCopy(dispatch: AppDispatch, state: RootState, id: string, patch: (a: AdminAlert) => void) {
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'listAlerts')) {
    dispatch(alertsApi.util.updateQueryData('listAlerts', args, (draft) => draft.items.forEach(patch)));
  }
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'recentAlerts')) {
    dispatch(alertsApi.util.updateQueryData('recentAlerts', args, (draft) => draft.forEach(patch)));
  }
  if (alertsApi.util.selectCachedArgsForQuery(state, 'getAlert').includes(id)) {
    dispatch(alertsApi.util.updateQueryData('getAlert', id, patch));
  }
}

function patchMyAlert(dispatch: AppDispatch, state: RootState, id: string, changes: Partial<UserAlert>) {
  for (const args of alertsApi.util.selectCachedArgsForQuery(state, 'myAlerts')) {
    dispatch(alertsApi.util.updateQueryData('myAlerts', args, (draft) => {
      for (const p of draft.pages) for (const a of p.items) if (a.id === id) Object.assign(a, changes);
    }));
  }
  if (alertsApi.util.selectCachedArgsForQuery(state, 'myAlert').includes(id)) {
    dispatch(alertsApi.util.updateQueryData('myAlert', id, (a) => Object.assign(a, changes)));
  }
}


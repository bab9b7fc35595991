import {
  AUDIENCE_TOKEN_HEADER,
  deliveryLabel,
  successRate,
  type AdminAlert,
  type AlertArea,
  type AlertAudience,
  type AllClearTranslations,
  type GeocodeResult,
  type AlertCategory,
  type AlertProgress,
  type AlertStatus,
  type AlertSummary,
  type AlertTemplate,
  type AlertTranslations,
  type ChannelCounts,
  type ChannelHealthReport,
  type ConnectionTestResult,
  type ContactGroup,
  type DeliveryChannel,
  type DeliverySettings,
  type DeliveryStatus,
  type HelpRequest,
  type Page,
  type Priority,
  type Severity,
  type SmsProvider,
} from '@beacon/contracts';
import { api } from '@/app/api';
import type { AppDispatch, RootState } from '@/app/store';
import { changedFields, queryParams, registerAlertCopies } from '@/features/alerts';
import type {
  AlertAuditEntry,
  AlertDeliveryRow,
  AlertOperations,
  AlertVersion,
  ApprovalPolicy,
  CapOrigin,
  CapPollResult,
  CapSource,
  CapSourceMode,
  TestGroup,
  TestGroupMembership,
  TestSchedule,
} from '@beacon/contracts';

// The admin console's endpoints of the alerts service, injected into the one api slice (app/api.ts, which declares
// the tag types) beside the signed-in user's endpoints in features/alerts/alerts.api.ts.

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
  /** Instead of lat/lng/radiusKm: a circle or a drawn polygon. */
  area?: AlertArea;
  expiresAt?: string;
  /** The escalation: remind whoever has not answered this many minutes after it went out. */
  remindAfterMinutes?: number;
  /** The text in other languages; left out when there is none. */
  translations?: AlertTranslations;
  /** No area, on purpose: the alert goes to everyone, everywhere (issue #38: without it, no area is refused). */
  everyone?: boolean;
  /** Send at this time (ISO) instead of now: the alert is `scheduled` until then. */
  sendAt?: string;
  /** The contact groups it targets besides (or instead of) its area (issue #42): left out for none. */
  groupIds?: string[];
}

/** The header of a sending call that carries the token of the audience the admin confirmed (issue #38). */
export const audienceTokenHeader = (token: string | undefined): Record<string, string> => (token ? { [AUDIENCE_TOKEN_HEADER]: token } : {});

/** POST /api/alerts/:id/send: a draft as stored, with the audience confirmed; `everyone` for a draft without an area. */
export interface SendDraftArgs {
  id: string;
  audienceToken?: string;
  everyone?: boolean;
  sendAt?: string;
}

/** POST /api/alerts/templates: a template whole. */
export interface TemplateBody {
  name: string;
  type?: string;
  category?: AlertCategory;
  severity: Severity;
  title: string;
  message: string;
  translations: AlertTranslations;
  channels: DeliveryChannel[];
  radiusKm?: number;
}

/**
 * POST /api/alerts/:id/update: what changes (only what is given); `revision` (required for a draft) or `version` is
 * what the admin was looking at.
 */
export interface UpdateAlertBody {
  area?: AlertArea;
  translations?: AlertTranslations;
  title?: string;
  message?: string;
  severity?: Severity;
  expiresAt?: string | null;
  locationName?: string;
  lat?: number;
  lng?: number;
  radiusKm?: number;
  /** Its contact groups, all of them (issue #42): sent only when they changed. */
  groupIds?: string[];
  version?: number;
  revision?: number;
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

/**
 * GET/PUT /api/alerts/admin/settings: secrets come back masked or said to be set, never in clear; the webhook's receipt
 * secret only once, in the answer of the PUT that generated it (`webhook.newSecret`).
 */
export type AdminSettingsView = DeliverySettings;

/** PUT /api/alerts/admin/settings: what changes. Secrets are write-only: left out keeps the saved one, '' clears it. */
export interface UpdateSettingsBody {
  push?: { enabled?: boolean; username?: string; apiKey?: string };
  /** `rotateSecret: true`: the server generates a new receipt secret and answers it once, in `webhook.newSecret`. */
  webhook?: { enabled?: boolean; url?: string; rotateSecret?: true };
  email?: { enabled?: boolean; url?: string; from?: string; eventsKey?: string };
  sms?: { provider?: SmsProvider };
  twilio?: { accountSid?: string; authToken?: string; fromNumber?: string };
  voice?: { enabled?: boolean };
}

/** The settings view as the cache keeps it: a receipt secret just generated is shown once, never kept. */
export function withoutNewSecret(view: AdminSettingsView): AdminSettingsView {
  if (view.webhook.newSecret === undefined) return view;
  const { newSecret: _shownOnce, ...webhook } = view.webhook;
  return { ...view, webhook };
}

export interface ProviderCheck {
  ok: boolean;
  message: string;
  status?: number | null;
  /** Whether a provider was called: false when only keys and stored subscriptions were read (push, issue #38). */
  contacted?: boolean;
  checked?: string[];
  /** Push: the browsers a push would go to now and their people; every stored one; those failing. */
  devices?: { browsers: number; people: number; subscribed: number; failing: number };
}

export interface HelpRequestsArgs {
  page: number;
  pageSize?: number;
  status?: HelpRequest['status'] | '';
}

/** POST/PUT /api/alerts/admin/cap-sources: a CAP source as the settings form sends it. */
export interface CapSourceBody {
  name: string;
  url: string;
  intervalSeconds: number;
  categories: string[];
  severities: string[];
  mode: CapSourceMode;
  channels: DeliveryChannel[];
  enabled: boolean;
}

export const adminAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // ---------------------------------------------------------------- admin
    /** 201: sent or scheduled; 202: awaiting approval (the status tells); 409 with details.audience: the audience moved. */
    createAlert: build.mutation<AdminAlert, { body: CreateAlertBody; idempotencyKey: string; audienceToken?: string }>({
      query: ({ body, idempotencyKey, audienceToken }) => ({
        url: 'api/alerts',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey, ...audienceTokenHeader(audienceToken) },
      }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }, 'AlertStats'],
    }),
    /**
     * POST /api/alerts/audience: whom this create body would reach if sent now (nothing is stored or sent). A mutation
     * without tags: each screen asks for the values it is about to send, and nothing caches or invalidates it.
     */
    /** The wizard's address search (GEOCODER_URL on the server; 503 geocoder_not_configured without one). */
    geocode: build.query<GeocodeResult[], string>({
      query: (q) => ({ url: 'api/alerts/geocode', params: { q } }),
    }),
    alertAudience: build.mutation<AlertAudience, CreateAlertBody>({
      query: (body) => ({ url: 'api/alerts/audience', method: 'POST', body }),
    }),
    /**
     * GET /api/alerts/admin/contact-groups: every contact group by name, with its member counts, for choosing those an
     * alert targets (issue #42). Read here rather than through the contact groups' own screens (features do not import
     * each other); read again whenever a form that offers them opens, so the counts are today's.
     */
    targetGroups: build.query<ContactGroup[], void>({
      query: () => 'api/alerts/admin/contact-groups',
    }),
    // ---------------------------------------------------------------- templates
    listTemplates: build.query<AlertTemplate[], void>({
      query: () => ({ url: 'api/alerts/templates' }),
      providesTags: ['AlertTemplates'],
    }),
    createTemplate: build.mutation<AlertTemplate, TemplateBody>({
      query: (body) => ({ url: 'api/alerts/templates', method: 'POST', body }),
      invalidatesTags: ['AlertTemplates'],
    }),
    deleteTemplate: build.mutation<{ ok: boolean }, string>({
      query: (id) => ({ url: `api/alerts/templates/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AlertTemplates'],
    }),
    listAlerts: build.query<Page<AdminAlert>, AlertListArgs>({
      query: (args) => ({ url: 'api/alerts', params: queryParams(args) }),
      providesTags: (res) => [{ type: 'Alert', id: 'LIST' }, ...(res?.items ?? []).map((a) => ({ type: 'Alert' as const, id: a.id }))],
    }),
    recentAlerts: build.query<AdminAlert[], number | void>({
      query: (limit) => ({ url: 'api/alerts/recent', params: queryParams({ limit: limit ?? undefined }) }),
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
    alertDeliveries: build.query<
      Page<AlertDeliveryRow>,
      { id: string; page: number; pageSize?: number; status?: DeliveryStatus | ''; channel?: DeliveryChannel | '' }
    >({
      query: ({ id, ...rest }) => ({ url: `api/alerts/${encodeURIComponent(id)}/deliveries`, params: queryParams(rest) }),
      providesTags: (_res, _err, { id }) => [{ type: 'Delivery', id }],
    }),
    /** Sends a draft (e.g. the one a verified wrong-way-driver report created). */
    sendDraft: build.mutation<AdminAlert, string | SendDraftArgs>({
      query: (arg) => {
        const { id, audienceToken, ...body } = typeof arg === 'string' ? { id: arg } : arg;
        return {
          url: `api/alerts/${encodeURIComponent(id)}/send`,
          method: 'POST',
          body: Object.keys(body).length ? body : undefined,
          headers: audienceTokenHeader(audienceToken),
        };
      },
      invalidatesTags: (_res, _err, arg) => [{ type: 'Alert', id: typeof arg === 'string' ? arg : arg.id }, 'AlertStats'],
    }),
    cancelAlert: build.mutation<AdminAlert, string>({
      query: (id) => ({ url: `api/alerts/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (_res, _err, id) => [{ type: 'Alert', id }, { type: 'Delivery', id }, 'AlertStats'],
    }),
    /** A new version of the alert in effect; the answer is the alert as it now stands. */
    updateAlert: build.mutation<AdminAlert, { id: string; body: UpdateAlertBody; audienceToken?: string }>({
      query: ({ id, body, audienceToken }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/update`,
        method: 'POST',
        body,
        headers: audienceTokenHeader(audienceToken),
      }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Delivery', id }, { type: 'AlertVersions', id }, 'AlertStats'],
    }),
    /** The all-clear: the alert ends and everyone it reached is told. */
    allClearAlert: build.mutation<AdminAlert, { id: string; message?: string; translations?: AllClearTranslations; audienceToken?: string }>({
      query: ({ id, message, translations, audienceToken }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/all-clear`,
        method: 'POST',
        // Each language's own words (issue #38), only those written: a language left out gets Beacon's words in it.
        body: { ...(message ? { message } : {}), ...(translations && Object.keys(translations).length ? { translations } : {}) },
        headers: audienceTokenHeader(audienceToken),
      }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Delivery', id }, { type: 'AlertVersions', id }, 'AlertStats'],
    }),
    /** Every version of the alert as it was sent, oldest first. */
    alertVersions: build.query<AlertVersion[], { id: string; version: number }>({
      // The version is in the key only: a new version (this admin's or, live, another's) is read as a new list.
      query: ({ id }) => `api/alerts/${encodeURIComponent(id)}/versions`,
      providesTags: (_res, _err, { id }) => [{ type: 'AlertVersions', id }],
    }),

    // ---------------------------------------------------------------- admin settings
    adminSettings: build.query<AdminSettingsView, void>({
      query: () => 'api/alerts/admin/settings',
      providesTags: ['AdminSettings'],
    }),
    updateAdminSettings: build.mutation<AdminSettingsView, UpdateSettingsBody>({
      query: (body) => ({ url: 'api/alerts/admin/settings', method: 'PUT', body }),
      // what a channel can do, and whether its provider sends receipts, follow the settings
      invalidatesTags: ['ChannelHealth'],
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(adminAlertsApi.util.upsertQueryData('adminSettings', undefined, withoutNewSecret(data)));
        } catch {
          // the screen shows the failure
        }
      },
    }),
    /**
     * GET /api/alerts/admin/channel-health: per channel, whether it can send, its last test and error, the receipts of
     * the last hour and whom it can reach now (staff). Every Test Connection and save reads it again.
     */
    channelHealth: build.query<ChannelHealthReport, void>({
      query: () => 'api/alerts/admin/channel-health',
      providesTags: ['ChannelHealth'],
    }),
    /** Signs in to the Twilio-compatible account (the SID and token typed, or the saved ones); nothing is sent. */
    testTwilio: build.mutation<ConnectionTestResult, { accountSid?: string; authToken?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-twilio', method: 'POST', body }),
      invalidatesTags: ['ChannelHealth'],
    }),
    // ---------------------------------------------------------------- CAP sources (official warnings in)
    capSources: build.query<CapSource[], void>({
      query: () => 'api/alerts/admin/cap-sources',
      providesTags: ['CapSources'],
    }),
    createCapSource: build.mutation<CapSource, CapSourceBody>({
      query: (body) => ({ url: 'api/alerts/admin/cap-sources', method: 'POST', body }),
      invalidatesTags: ['CapSources'],
    }),
    updateCapSource: build.mutation<CapSource, { id: string; body: CapSourceBody }>({
      query: ({ id, body }) => ({ url: `api/alerts/admin/cap-sources/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['CapSources'],
    }),
    deleteCapSource: build.mutation<void, string>({
      query: (id) => ({ url: `api/alerts/admin/cap-sources/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['CapSources'],
    }),
    /** Fetches the source now; what it made shows in the alert lists. */
    pollCapSource: build.mutation<CapPollResult, string>({
      query: (id) => ({ url: `api/alerts/admin/cap-sources/${encodeURIComponent(id)}/poll`, method: 'POST' }),
      invalidatesTags: ['CapSources', { type: 'Alert', id: 'LIST' }, 'AlertStats'],
    }),
    /** Where an alert made from a CAP message came from. */
    capOrigin: build.query<CapOrigin, string>({
      query: (alertId) => `api/alerts/admin/cap-sources/alerts/${encodeURIComponent(alertId)}`,
    }),
    testPushConnection: build.mutation<ProviderCheck, { username?: string; apiKey?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-connection', method: 'POST', body }),
      // every Test Connection is its channel's last test (provider health)
      invalidatesTags: ['ChannelHealth'],
    }),
    testWebhook: build.mutation<ProviderCheck, { url?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-webhook', method: 'POST', body }),
      invalidatesTags: ['ChannelHealth'],
    }),
    sendTestAlert: build.mutation<{ ok: boolean; channels: DeliveryChannel[]; alert: AdminAlert }, void>({
      query: () => ({ url: 'api/alerts/admin/settings/test-alert', method: 'POST' }),
    }),
    helpRequests: build.query<Page<HelpRequest>, HelpRequestsArgs>({
      query: (args) => ({ url: 'api/alerts/admin/help-requests', params: queryParams(args) }),
    }),
    /** The answer is the resolved request: written into every cached page rather than read again. */
    /** Resolving takes a note of what was done (issue #38), kept with the request. */
    resolveHelpRequest: build.mutation<HelpRequest, { id: string; note: string }>({
      query: ({ id, note }) => ({ url: `api/alerts/admin/help-requests/${encodeURIComponent(id)}/resolve`, method: 'POST', body: { note } }),
      async onQueryStarted({ id }, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          for (const args of adminAlertsApi.util.selectCachedArgsForQuery(getState() as RootState, 'helpRequests')) {
            dispatch(
              adminAlertsApi.util.updateQueryData('helpRequests', args, (draft) => {
                for (const h of draft.items) if (h.id === id) Object.assign(h, data);
              }),
            );
          }
        } catch {
          // the screen shows the failure
        }
      },
    }),
    /** Pace, ETA, retries and failures of an alert as it goes out; read again on its progress events (useLiveAdminAlerts). */
    alertOperations: build.query<AlertOperations, string>({
      query: (id) => `api/alerts/${encodeURIComponent(id)}/operations`,
      providesTags: (_res, _err, id) => [{ type: 'AlertOperations', id }],
    }),
    /** Who created, sent, ended the alert and acted on its deliveries, oldest first; read again with the alert's tag. */
    alertAudit: build.query<AlertAuditEntry[], string>({
      query: (id) => `api/alerts/${encodeURIComponent(id)}/audit`,
      providesTags: (_res, _err, id) => [{ type: 'Alert', id }],
    }),
    /** A channel's failed deliveries sent again; the alert (and its audit), its deliveries and the stats are read again. */
    retryFailedDeliveries: build.mutation<{ retried: number }, { id: string; channel: DeliveryChannel; audienceToken?: string }>({
      query: ({ id, channel, audienceToken }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/retry`,
        method: 'POST',
        body: { channel },
        headers: audienceTokenHeader(audienceToken),
      }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Delivery', id }, { type: 'AlertOperations', id }, 'AlertStats'],
    }),
    /** The people nothing reached, sent the alert on `channel`. */
    sendToUnreached: build.mutation<{ added: number }, { id: string; channel: DeliveryChannel; audienceToken?: string }>({
      query: ({ id, channel, audienceToken }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/fallback`,
        method: 'POST',
        body: { channel },
        headers: audienceTokenHeader(audienceToken),
      }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Delivery', id }, { type: 'AlertOperations', id }, 'AlertStats'],
    }),
  }),
});

export const {
  useListTemplatesQuery,
  useCreateTemplateMutation,
  useDeleteTemplateMutation,
  useCreateAlertMutation,
  useAlertAudienceMutation,
  useTargetGroupsQuery,
  useLazyGeocodeQuery,
  useListAlertsQuery,
  useRecentAlertsQuery,
  useAlertStatsQuery,
  useGetAlertQuery,
  useAlertDeliveriesQuery,
  useLazyAlertDeliveriesQuery,
  useCancelAlertMutation,
  useUpdateAlertMutation,
  useAllClearAlertMutation,
  useAlertVersionsQuery,
  useSendDraftMutation,
  useHelpRequestsQuery,
  useResolveHelpRequestMutation,
  useAdminSettingsQuery,
  useUpdateAdminSettingsMutation,
  useChannelHealthQuery,
  useTestTwilioMutation,
  useTestPushConnectionMutation,
  useTestWebhookMutation,
  useSendTestAlertMutation,
  useAlertAuditQuery,
  useAlertOperationsQuery,
  useRetryFailedDeliveriesMutation,
  useSendToUnreachedMutation,
  useCapSourcesQuery,
  useCreateCapSourceMutation,
  useUpdateCapSourceMutation,
  useDeleteCapSourceMutation,
  usePollCapSourceMutation,
  useCapOriginQuery,
} = adminAlertsApi;

// ------------------------------------------------------------------ live events written into the cache

/** Applies one progress event to every cached copy of that alert (lists, recent, detail). */
export function applyProgress(dispatch: AppDispatch, state: RootState, p: AlertProgress) {
  const patch = (a: AdminAlert) => {
    if (a.id !== p.alertId) return;
    a.summary = p.channels;
    a.recipients = p.recipients;
    a.deliveryLabel = deliveryLabel(p.channels, a);
    a.successRate = successRate(p.channels);
    if (p.responses) a.responses = p.responses;
  };
  forEachAdminCopy(dispatch, state, p.alertId, patch);
}

/**
 * A status change (cancelled, expired) reaches the admins' cached copies; registered with the user feature, whose
 * applyAlertUpdate (on admin and user screens alike) patches these and the user's own copies.
 */
registerAlertCopies((dispatch, state, s) => {
  forEachAdminCopy(dispatch, state, s.id, (a) => {
    if (a.id === s.id) Object.assign(a, changedFields(s));
  });
});

/** A new alert for the admins' lists: prepended to the unfiltered first page and the recent list. */
export function applyNewAdminAlert(dispatch: AppDispatch, state: RootState, s: AlertSummary) {
  const fresh: AdminAlert = {
    ...s,
    translations: {},
    createdBy: null,
    updatedAt: s.createdAt,
    revision: 1,
    sentAt: s.status === 'active' ? s.createdAt : null,
    source: 'admin',
    recipients: null,
    concerned: null,
    summary: {},
    deliveryLabel: 'Pending',
    successRate: 0,
    responses: { safe: 0, needHelp: 0, helpOpen: 0 },
    // The event does not carry it; the alert's own page reads it.
    reminder: null,
    // Nor these (issue #38): the alert's own page, and the lists' next read on its alert:updated, have them.
    createdByEmail: null,
    sendAt: null,
    approval: null,
    breakGlass: null,
    // Nor its contact groups (issue #42): its own page reads them.
    groups: [],
  };
  for (const args of adminAlertsApi.util.selectCachedArgsForQuery(state, 'listAlerts')) {
    if (args.page !== 1 || args.search || args.type || args.priority || args.status) continue;
    dispatch(
      adminAlertsApi.util.updateQueryData('listAlerts', args, (draft) => {
        if (draft.items.some((a) => a.id === s.id)) return;
        draft.items.unshift(fresh);
        if (draft.items.length > draft.pageSize) draft.items.pop();
        draft.total += 1;
        draft.totalPages = Math.max(1, Math.ceil(draft.total / draft.pageSize));
      }),
    );
  }
  for (const args of adminAlertsApi.util.selectCachedArgsForQuery(state, 'recentAlerts')) {
    dispatch(
      adminAlertsApi.util.updateQueryData('recentAlerts', args, (draft) => {
        if (draft.some((a) => a.id === s.id)) return;
        draft.unshift(fresh);
        draft.splice(typeof args === 'number' ? args : 5);
      }),
    );
  }
}

function forEachAdminCopy(dispatch: AppDispatch, state: RootState, id: string, patch: (a: AdminAlert) => void) {
  for (const args of adminAlertsApi.util.selectCachedArgsForQuery(state, 'listAlerts')) {
    dispatch(adminAlertsApi.util.updateQueryData('listAlerts', args, (draft) => draft.items.forEach(patch)));
  }
  for (const args of adminAlertsApi.util.selectCachedArgsForQuery(state, 'recentAlerts')) {
    dispatch(adminAlertsApi.util.updateQueryData('recentAlerts', args, (draft) => draft.forEach(patch)));
  }
  if (adminAlertsApi.util.selectCachedArgsForQuery(state, 'getAlert').includes(id)) {
    dispatch(adminAlertsApi.util.updateQueryData('getAlert', id, patch));
  }
}

// ------------------------------------------------------------------ the alert page's previews and approval (issue #38)

/**
 * The alert page's audience previews (each answers the AlertAudience its sending call is then confirmed on, with the
 * token it carries), and the approval decisions. Previews are mutations without tags, as POST /api/alerts/audience:
 * each confirmation asks for the values it is about to send, and nothing caches them.
 */
export const alertPageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET /api/alerts/:id/audience: whom the draft as stored would reach if sent now (or an alert awaiting approval, if
     * approved now); `everyone` for one without an area.
     */
    draftAudience: build.mutation<AlertAudience, { id: string; everyone?: boolean }>({
      query: ({ id, everyone }) => ({ url: `api/alerts/${encodeURIComponent(id)}/audience`, params: everyone ? { everyone: 'true' } : undefined }),
    }),
    /** Whom this update tells what (AlertAudience.told), for the body it is about to send. */
    updateAudience: build.mutation<AlertAudience, { id: string; body: UpdateAlertBody }>({
      query: ({ id, body }) => ({ url: `api/alerts/${encodeURIComponent(id)}/update/audience`, method: 'POST', body }),
    }),
    allClearAudience: build.mutation<AlertAudience, { id: string; message?: string; translations?: AllClearTranslations }>({
      query: ({ id, message, translations }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/all-clear/audience`,
        method: 'POST',
        body: { ...(message ? { message } : {}), ...(translations && Object.keys(translations).length ? { translations } : {}) },
      }),
    }),
    /** Whom Retry failed would send to again on `channel` (its failed deliveries). */
    retryAudience: build.mutation<AlertAudience, { id: string; channel: DeliveryChannel }>({
      query: ({ id, channel }) => ({ url: `api/alerts/${encodeURIComponent(id)}/retry/audience`, method: 'POST', body: { channel } }),
    }),
    /** Whom Send to the unreached would reach on `channel` (those nothing reached). */
    fallbackAudience: build.mutation<AlertAudience, { id: string; channel: DeliveryChannel }>({
      query: ({ id, channel }) => ({ url: `api/alerts/${encodeURIComponent(id)}/fallback/audience`, method: 'POST', body: { channel } }),
    }),
    /** An approver (never the author) lets an alert awaiting approval go out: now, or at its sendAt. */
    approveAlert: build.mutation<AdminAlert, { id: string; note?: string; audienceToken?: string }>({
      query: ({ id, note, audienceToken }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/approve`,
        method: 'POST',
        body: note ? { note } : {},
        // approving an alert that goes out now is a send: the count the approver confirmed (GET /:id/audience)
        headers: audienceTokenHeader(audienceToken),
      }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Alert', id: 'LIST' }, 'AlertStats'],
    }),
    /** Back to a draft, with the approver's reason (required). */
    rejectAlert: build.mutation<AdminAlert, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `api/alerts/${encodeURIComponent(id)}/reject`, method: 'POST', body: { reason } }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Alert', id: 'LIST' }, 'AlertStats'],
    }),
    /** An emergency send without the approval the policy asked for, on a typed reason: flagged on the alert for good. */
    breakGlassAlert: build.mutation<AdminAlert, { id: string; reason: string; audienceToken?: string }>({
      query: ({ id, reason, audienceToken }) => ({
        url: `api/alerts/${encodeURIComponent(id)}/break-glass`,
        method: 'POST',
        body: { reason },
        headers: audienceTokenHeader(audienceToken),
      }),
      invalidatesTags: (_res, _err, { id }) => [{ type: 'Alert', id }, { type: 'Alert', id: 'LIST' }, 'AlertStats'],
    }),
  }),
});

export const {
  useDraftAudienceMutation,
  useUpdateAudienceMutation,
  useAllClearAudienceMutation,
  useRetryAudienceMutation,
  useFallbackAudienceMutation,
  useApproveAlertMutation,
  useRejectAlertMutation,
  useBreakGlassAlertMutation,
} = alertPageApi;

// ------------------------------------------------------------------ Admin Settings: the mail relay and the approval policy (issue #38)

/** GET/PUT /api/alerts/admin/settings/approval: the two-person rule (PUT takes the three choices). */
export type ApprovalPolicyBody = Pick<ApprovalPolicy, 'mode' | 'minSeverity' | 'capAutomatic'>;

export const adminSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Connects, signs in as a send would, sends nothing: the relay typed (or the masked one shown: the saved one). */
    testEmailRelay: build.mutation<ProviderCheck, { url?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-email', method: 'POST', body }),
      invalidatesTags: ['ChannelHealth'],
    }),
    /** One real e-mail to the signed-in admin through the relay typed or saved. */
    sendTestEmail: build.mutation<ProviderCheck & { messageId?: string }, { url?: string; from?: string }>({
      query: (body) => ({ url: 'api/alerts/admin/settings/send-test-email', method: 'POST', body }),
      invalidatesTags: ['ChannelHealth'],
    }),
    approvalPolicy: build.query<ApprovalPolicy, void>({
      query: () => 'api/alerts/admin/settings/approval',
    }),
    /** The answer is the policy as saved: written into the cache rather than read again. */
    updateApprovalPolicy: build.mutation<ApprovalPolicy, ApprovalPolicyBody>({
      query: (body) => ({ url: 'api/alerts/admin/settings/approval', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(adminSettingsApi.util.upsertQueryData('approvalPolicy', undefined, data));
        } catch {
          // the screen shows the failure
        }
      },
    }),
  }),
});

export const { useTestEmailRelayMutation, useSendTestEmailMutation, useApprovalPolicyQuery, useUpdateApprovalPolicyMutation } = adminSettingsApi;

// ------------------------------------------------------------------ Admin Settings: the recurring test alert (issue #38)

/** PUT /api/alerts/admin/settings/test-schedule: the fields to change (one left out keeps its value). */
export type TestScheduleBody = Partial<Pick<TestSchedule, 'frequency' | 'weekday' | 'time' | 'timeZone' | 'channels'>>;

/**
 * The recurring test alert's schedule and its staff test group (admins), and the signed-in staff member's own place in
 * the group (every staff member). Each answer is the state as saved: written into the cache rather than read again.
 */
export const testAlertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    testSchedule: build.query<TestSchedule, void>({
      query: () => 'api/alerts/admin/settings/test-schedule',
    }),
    updateTestSchedule: build.mutation<TestSchedule, TestScheduleBody>({
      query: (body) => ({ url: 'api/alerts/admin/settings/test-schedule', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(testAlertsApi.util.upsertQueryData('testSchedule', undefined, data));
        } catch {
          // the screen shows the failure
        }
      },
    }),
    testGroup: build.query<TestGroup, void>({
      query: () => 'api/alerts/admin/test-group',
    }),
    removeTestGroupMember: build.mutation<TestGroup, string>({
      query: (userId) => ({ url: `api/alerts/admin/test-group/${encodeURIComponent(userId)}`, method: 'DELETE' }),
      async onQueryStarted(_userId, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(testAlertsApi.util.upsertQueryData('testGroup', undefined, data));
        } catch {
          // the screen shows the failure
        }
      },
    }),
    myTestGroupMembership: build.query<TestGroupMembership, void>({
      query: () => 'api/alerts/admin/test-group/me',
    }),
    /** Joins or leaves; a group list on screen (an admin's) is read again, since it gains or loses this person. */
    setMyTestGroupMembership: build.mutation<TestGroupMembership, boolean>({
      query: (member) => ({ url: 'api/alerts/admin/test-group/me', method: 'PUT', body: { member } }),
      async onQueryStarted(_member, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(testAlertsApi.util.upsertQueryData('myTestGroupMembership', undefined, data));
          if (testAlertsApi.util.selectCachedArgsForQuery(getState() as RootState, 'testGroup').length) {
            dispatch(testAlertsApi.endpoints.testGroup.initiate(undefined, { forceRefetch: true, subscribe: false }));
          }
        } catch {
          // the screen shows the failure
        }
      },
    }),
  }),
});

export const {
  useTestScheduleQuery,
  useUpdateTestScheduleMutation,
  useTestGroupQuery,
  useRemoveTestGroupMemberMutation,
  useMyTestGroupMembershipQuery,
  useSetMyTestGroupMembershipMutation,
} = testAlertsApi;

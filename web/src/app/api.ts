import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import type { IntlShape } from 'react-intl';
import { isErrorCode, type ErrorCode } from '@beacon/contracts';
import { currentIntl } from '@/i18n';
import { accessToken } from '@/features/auth/auth-client';
import { noteServerDate } from '@/common/server-clock';
import { keepingOfflineCopies } from '@/features/offline/offline-base-query';
import { codeMessage, ERROR_MESSAGES, readsEnglish } from './error-messages';

/**
 * Every Beacon API error body: a stable code (switch on it: the union is the services' own) and a message fit to show
 * a person: the server's own (English) for an English reader, the catalogue's for the code for a reader of another
 * language (the server's when the catalogue has none: errorMessage() then prefers the screen's fallback).
 */
export interface ApiError {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
}

// offline, the person's last alerts and preferences answer instead of the network (issue #40)
const rawBaseQuery = keepingOfflineCopies(
  fetchBaseQuery({
    baseUrl: '/',
    prepareHeaders: async (headers) => {
      const token = await accessToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  }),
);

/** Normalises network failures and non-JSON errors into ApiError so screens can show `error.message`. */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (args, api, extra) => {
  const sentAt = Date.now();
  const result = await rawBaseQuery(args, api, extra);
  noteServerDate(result.meta?.response?.headers.get('date'), sentAt, Date.now());
  if (!result.error) return { data: result.data, meta: result.meta };
  return { error: toApiError(result.error), meta: result.meta };
};

export function toApiError(error: FetchBaseQueryError, intl: IntlShape = currentIntl()): ApiError {
  if (typeof error.status === 'number') {
    const data = error.data as Partial<ApiError> | undefined;
    const code = isErrorCode(data?.code) ? data.code : 'error';
    const message = typeof data?.message === 'string' && data.message ? data.message : intl.formatMessage(ERROR_MESSAGES.error);
    return {
      statusCode: error.status,
      code,
      message: readsEnglish(intl) ? message : (codeMessage(code, data?.details, intl) ?? message),
      details: data?.details,
    };
  }
  return { statusCode: 0, code: 'network_error', message: networkErrorMessage(intl) };
}

/** A request that got no answer: 'Could not reach Beacon. Check your connection and try again.' */
export const networkErrorMessage = (intl: IntlShape = currentIntl()) => intl.formatMessage(ERROR_MESSAGES.network_error);

/**
 * What to tell a person about a failed call (an ApiError, or any error with a `code` and a `message`), for a toast
 * or a form. An English reader gets the server's message, the spec's text and the most precise; a reader of another
 * language gets the catalogue's message for the error's code, and `fallback` (the screen's own words, already in the
 * reader's language) when the catalogue has none, or only one that says less than `fallback` does.
 */
export function errorMessage(error: unknown, fallback: string, intl: IntlShape = currentIntl()): string {
  const e = error as Partial<ApiError> | null | undefined;
  if (readsEnglish(intl)) return (typeof e?.message === 'string' && e.message) || fallback;
  return codeMessage(e?.code, e?.details, intl, true) ?? fallback;
}

/**
 * The one RTK Query API. Features add their endpoints with `api.injectEndpoints` in their own
 * `<feature>.api.ts`, and invalidate by these tags.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'Alert',
    'AlertTemplates',
    'CapSources',
    'AlertStats',
    'AlertOperations',
    'AlertVersions',
    'MyAlerts',
    'Preferences',
    'AdminSettings',
    'ChannelHealth',
    'Delivery',
    'Incident',
    'Post',
    'Comment',
    'Points',
    'CommunityStats',
    'Camera',
    'TrafficEvent',
    'Product',
    'ProductStats',
    'Activity',
  ],
  endpoints: () => ({}),
});

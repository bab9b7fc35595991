import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { isErrorCode, type ErrorCode } from '@beacon/contracts';
import { accessToken } from '@/features/auth/auth-client';
import { noteServerDate } from '@/common/server-clock';
import { keepingOfflineCopies } from '@/features/offline/offline-base-query';

/** Every Beacon API error body: a stable code (switch on it: the union is the services' own) and a message fit to show a person. */
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

export function toApiError(error: FetchBaseQueryError): ApiError {
  if (typeof error.status === 'number') {
    const data = error.data as Partial<ApiError> | undefined;
    return {
      statusCode: error.status,
      code: isErrorCode(data?.code) ? data.code : 'error',
      message: data?.message ?? 'Something went wrong. Please try again.',
      details: data?.details,
    };
  }
  return { statusCode: 0, code: 'network_error', message: 'Could not reach Beacon. Check your connection and try again.' };
}

/** Reads the message of any RTK Query error for a toast. */
export function errorMessage(error: unknown, fallback: string): string {
  const e = error as Partial<ApiError> | undefined;
  return e?.message ?? fallback;
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

import type { IntlShape } from 'react-intl';
import { errorMessage, networkErrorMessage } from '@/app/api';
import { currentIntl } from '@/i18n';

/** What the auth client library reports: the identity service's `error_code` as `code`, its `msg` as `message`. */
interface AuthClientError {
  message?: string;
  code?: string;
  status?: number;
  name?: string;
}

/**
 * What to tell a person about a failed auth call (sign in, sign up, reset, a code), as errorMessage() does for the
 * API: the identity service's own message for an English reader, the catalogue's for its code for another, else
 * `fallback`. A call that never reached the service (the library's retryable fetch error) says so in the reader's
 * language, English included: the browser's "Failed to fetch" tells a person nothing.
 */
export function authErrorMessage(error: AuthClientError | null | undefined, fallback: string, intl: IntlShape = currentIntl()): string {
  if (error?.name === 'AuthRetryableFetchError') return errorMessage({ code: 'network_error', message: networkErrorMessage(intl) }, fallback, intl);
  return errorMessage(error, fallback, intl);
}

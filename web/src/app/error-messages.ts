import type { IntlShape, MessageDescriptor } from 'react-intl';
import type { ErrorCode } from '@beacon/contracts';
import { defineMessages, PSEUDO_LOCALE } from '@/i18n';

/**
 * What an error code means, for a reader of another language than English (issue #41). The services write their
 * `message` in English, word for word the spec's where it has one, and often more precisely than a code can say
 * ("Too many requests. Please try again in 30 seconds."): an English reader keeps it. These messages cover what any
 * service may answer, what the identity service answers the sign-in screens, and what the public screens meet; a
 * code without a message here shows the screen's own (translated) fallback.
 */
export const ERROR_MESSAGES = defineMessages({
  // what any service, the shared guards or the edge may answer
  bad_request: { id: 'errors.bad_request', defaultMessage: 'The request was not valid. Please check what you entered and try again.' },
  unauthorized: { id: 'errors.unauthorized', defaultMessage: 'You need to sign in to do that.' },
  forbidden: { id: 'errors.forbidden', defaultMessage: 'You do not have permission to do that.' },
  not_found: { id: 'errors.not_found', defaultMessage: 'We could not find what you asked for. It may have been removed.' },
  method_not_allowed: { id: 'errors.method_not_allowed', defaultMessage: 'That action is not available here.' },
  conflict: { id: 'errors.conflict', defaultMessage: 'This was changed in the meantime. Reload the page and try again.' },
  payload_too_large: { id: 'errors.payload_too_large', defaultMessage: 'What you sent is too large.' },
  unsupported_media_type: { id: 'errors.unsupported_media_type', defaultMessage: 'This type of file or data is not accepted.' },
  unprocessable_entity: { id: 'errors.unprocessable_entity', defaultMessage: 'We could not process what you entered. Please check it and try again.' },
  too_many_requests: { id: 'errors.too_many_requests', defaultMessage: 'Too many requests. Please wait a moment and try again.' },
  internal_error: { id: 'errors.internal_error', defaultMessage: 'Something went wrong on our side. Please try again.' },
  error: { id: 'errors.error', defaultMessage: 'Something went wrong. Please try again.' },
  validation_failed: { id: 'errors.validation_failed', defaultMessage: 'Some of what you entered is not valid. Please check it and try again.' },
  malformed_json: { id: 'errors.malformed_json', defaultMessage: 'The request could not be read. Please try again.' },
  invalid_characters: { id: 'errors.invalid_characters', defaultMessage: 'What you entered contains characters that are not allowed.' },
  rate_limited: { id: 'errors.rate_limited', defaultMessage: 'Too many requests. Please try again later.' },
  invalid_url: { id: 'errors.invalid_url', defaultMessage: 'This web address is not valid or is not allowed.' },
  unresolvable_host: { id: 'errors.unresolvable_host', defaultMessage: 'The server of this web address could not be found.' },
  private_address: { id: 'errors.private_address', defaultMessage: 'This web address points to a private network, which is not allowed.' },
  token_missing: { id: 'errors.token_missing', defaultMessage: 'You need to sign in to do that.' },
  token_expired: { id: 'errors.token_expired', defaultMessage: 'Your session has expired. Please sign in again.' },
  token_invalid: { id: 'errors.token_invalid', defaultMessage: 'Your session is not valid. Please sign in again.' },
  session_revoked: { id: 'errors.session_revoked', defaultMessage: 'Your session has ended. Please sign in again.' },
  session_check_unavailable: {
    id: 'errors.session_check_unavailable',
    defaultMessage: 'We could not check your session just now. Please try again in a moment.',
  },
  service_unavailable: { id: 'errors.service_unavailable', defaultMessage: 'Beacon is not available right now. Please try again in a moment.' },
  bad_gateway: { id: 'errors.bad_gateway', defaultMessage: 'Beacon could not complete your request just now. Please try again in a moment.' },
  network_error: { id: 'errors.network_error', defaultMessage: 'Could not reach Beacon. Check your connection and try again.' },

  // the identity service (sign in, sign up, password reset, two-factor authentication)
  bad_json: { id: 'errors.bad_json', defaultMessage: 'The request could not be read. Please try again.' },
  email_exists: { id: 'errors.email_exists', defaultMessage: 'An account with this email address already exists.' },
  user_already_exists: { id: 'errors.user_already_exists', defaultMessage: 'An account with this email address already exists.' },
  bad_jwt: { id: 'errors.bad_jwt', defaultMessage: 'Your session is not valid. Please sign in again.' },
  not_admin: { id: 'errors.not_admin', defaultMessage: 'You do not have permission to do that.' },
  no_authorization: { id: 'errors.no_authorization', defaultMessage: 'You need to sign in to do that.' },
  user_not_found: { id: 'errors.user_not_found', defaultMessage: 'This account was not found.' },
  session_not_found: { id: 'errors.session_not_found', defaultMessage: 'Your session has ended. Please sign in again.' },
  refresh_token_not_found: { id: 'errors.refresh_token_not_found', defaultMessage: 'Your session has ended. Please sign in again.' },
  refresh_token_already_used: { id: 'errors.refresh_token_already_used', defaultMessage: 'Your session has ended. Please sign in again.' },
  invalid_credentials: { id: 'errors.invalid_credentials', defaultMessage: 'Invalid email or password.' },
  email_not_confirmed: {
    id: 'errors.email_not_confirmed',
    defaultMessage: 'Your email address is not confirmed yet. Open the link in the email we sent you.',
  },
  user_banned: { id: 'errors.user_banned', defaultMessage: 'This account has been suspended.' },
  weak_password: { id: 'errors.weak_password', defaultMessage: 'This password is too weak. Use at least 8 characters.' },
  same_password: { id: 'errors.same_password', defaultMessage: 'Your new password must be different from your old one.' },
  over_request_rate_limit: { id: 'errors.over_request_rate_limit', defaultMessage: 'Too many attempts. Please wait a moment and try again.' },
  over_email_send_rate_limit: {
    id: 'errors.over_email_send_rate_limit',
    defaultMessage: 'Too many emails were requested. Please wait a minute and try again.',
  },
  otp_expired: { id: 'errors.otp_expired', defaultMessage: 'This link has expired or has already been used. Ask for a new one.' },
  mfa_factor_not_found: { id: 'errors.mfa_factor_not_found', defaultMessage: 'This authenticator app is not set up for your account.' },
  mfa_factor_name_conflict: { id: 'errors.mfa_factor_name_conflict', defaultMessage: 'An authenticator app with this name is already set up.' },
  too_many_enrolled_mfa_factors: {
    id: 'errors.too_many_enrolled_mfa_factors',
    defaultMessage: 'Too many authenticator apps are set up for this account.',
  },
  mfa_challenge_expired: { id: 'errors.mfa_challenge_expired', defaultMessage: 'This code request has expired. Please try again.' },
  mfa_verification_failed: {
    id: 'errors.mfa_verification_failed',
    defaultMessage: 'The code is not correct. Check your authenticator app and try again.',
  },
  mfa_ip_address_mismatch: {
    id: 'errors.mfa_ip_address_mismatch',
    defaultMessage: 'Enter the code from the same network you asked for it from. Please try again.',
  },
  insufficient_aal: { id: 'errors.insufficient_aal', defaultMessage: 'Enter a code from your authenticator app first, then try again.' },
  phone_provider_disabled: { id: 'errors.phone_provider_disabled', defaultMessage: 'Signing in with a phone number is not available.' },
  email_address_invalid: { id: 'errors.email_address_invalid', defaultMessage: 'Please enter a valid email address.' },
  unexpected_failure: { id: 'errors.unexpected_failure', defaultMessage: 'Something went wrong. Please try again.' },

  // alerts: the person's feed, preferences, notifications, help requests
  alert_not_found: { id: 'errors.alert_not_found', defaultMessage: 'This alert was not found. It may have been removed.' },
  invalid_alert_id: { id: 'errors.invalid_alert_id', defaultMessage: 'This alert link is not valid.' },
  alert_in_effect: {
    id: 'errors.alert_in_effect',
    defaultMessage: 'This alert is still in effect: you can dismiss it once it has ended or the all-clear is given.',
  },
  incomplete_location: { id: 'errors.incomplete_location', defaultMessage: 'Latitude and longitude go together: enter both or neither.' },
  invalid_time_zone: { id: 'errors.invalid_time_zone', defaultMessage: 'Choose a valid time zone.' },
  phone_number_required: { id: 'errors.phone_number_required', defaultMessage: 'Add a phone number to receive SMS alerts.' },
  invalid_push_keys: {
    id: 'errors.invalid_push_keys',
    defaultMessage: 'This browser could not be signed up for notifications. Turn notifications off and on again.',
  },
  invalid_push_endpoint: {
    id: 'errors.invalid_push_endpoint',
    defaultMessage: 'This browser could not be signed up for notifications. Turn notifications off and on again.',
  },
  unsupported_push_service: {
    id: 'errors.unsupported_push_service',
    defaultMessage: 'This browser delivers notifications through a push service Beacon does not accept. Chrome, Edge, Firefox and Safari work.',
  },
  help_request_not_found: { id: 'errors.help_request_not_found', defaultMessage: 'This help request was not found.' },
  geocoder_not_configured: {
    id: 'errors.geocoder_not_configured',
    defaultMessage: 'Address search is not available: type the coordinates as "latitude, longitude" instead.',
  },
  geocoder_unavailable: {
    id: 'errors.geocoder_unavailable',
    defaultMessage: 'The address search is not answering right now: try again, or type the coordinates as "latitude, longitude".',
  },
  channels_disabled: { id: 'errors.channels_disabled', defaultMessage: 'Every alert channel is turned off right now.' },
  no_test_target: {
    id: 'errors.no_test_target',
    defaultMessage:
      'No device to receive a test alert: allow notifications in this browser, or add a phone number or an email address in your alert preferences.',
  },

  // incident reports, community posts and their photos
  incident_not_found: { id: 'errors.incident_not_found', defaultMessage: 'This report was not found. It may have been removed.' },
  invalid_transition: { id: 'errors.invalid_transition', defaultMessage: 'This report cannot change to that status.' },
  status_changed: { id: 'errors.status_changed', defaultMessage: 'This report was just updated by someone else. Reload and try again.' },
  location_required: { id: 'errors.location_required', defaultMessage: 'Please choose a location.' },
  post_not_found: { id: 'errors.post_not_found', defaultMessage: 'This post was not found. It may have been removed.' },
  parent_not_found: { id: 'errors.parent_not_found', defaultMessage: 'The comment you are replying to was not found.' },
  bucket_not_found: { id: 'errors.bucket_not_found', defaultMessage: 'The photo could not be uploaded. Please try again.' },
  file_required: { id: 'errors.file_required', defaultMessage: 'Please choose an image to upload.' },
  file_too_large: { id: 'errors.file_too_large', defaultMessage: 'The photo must be less than 5 MB.' },
  multipart_required: { id: 'errors.multipart_required', defaultMessage: 'The photo could not be uploaded. Please try again.' },
  unexpected_field: { id: 'errors.unexpected_field', defaultMessage: 'The photo could not be uploaded. Please try again.' },
  invalid_upload: { id: 'errors.invalid_upload', defaultMessage: 'The photo could not be uploaded. Please try again.' },
  invalid_image: { id: 'errors.invalid_image', defaultMessage: 'Please select a valid image file' },
  upload_busy: { id: 'errors.upload_busy', defaultMessage: 'Too many uploads at once. Please try again.' },
  upload_not_found: { id: 'errors.upload_not_found', defaultMessage: 'The uploaded image was not found. Please upload it again.' },
  image_not_found: { id: 'errors.image_not_found', defaultMessage: 'This image was not found.' },

  // the store and the traffic cameras
  product_not_found: { id: 'errors.product_not_found', defaultMessage: 'This product was not found. It may have been removed.' },
  invalid_product_id: { id: 'errors.invalid_product_id', defaultMessage: 'This product link is not valid.' },
  invalid_price_range: { id: 'errors.invalid_price_range', defaultMessage: 'The lowest price must not be above the highest.' },
  camera_image_not_found: { id: 'errors.camera_image_not_found', defaultMessage: 'This camera has no image right now.' },
}) satisfies Partial<Record<ErrorCode, MessageDescriptor>>;

/** `rate_limited` says when to try again (details.retryAfter, in seconds), as the server's message does. */
const RETRY_IN = defineMessages({
  seconds: {
    id: 'errors.rate_limited.seconds',
    defaultMessage: 'Too many requests. Please try again in {seconds, plural, one {# second} other {# seconds}}.',
  },
  minutes: {
    id: 'errors.rate_limited.minutes',
    defaultMessage: 'Too many requests. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  },
});

/**
 * Codes that say only that something failed: the screen's fallback ("Failed to update alert") says more, so it wins
 * over these where a screen gives one.
 */
const SAYS_LITTLE = new Set<string>(['error', 'bad_request', 'internal_error', 'unprocessable_entity', 'unexpected_failure']);

/** Whether the reader reads English: the server's own messages are theirs (the pseudo-locale reads the catalogue). */
export const readsEnglish = (intl: IntlShape) => intl.locale !== PSEUDO_LOCALE && /^en(-|$)/i.test(intl.locale);

/**
 * The catalogue's message for an error code, in the reader's language; undefined for a code it has no message for
 * (or, with `fallbackSaysMore`, one of the codes that say only that something failed).
 */
export function codeMessage(code: unknown, details: unknown, intl: IntlShape, fallbackSaysMore = false): string | undefined {
  if (typeof code !== 'string' || !Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, code)) return undefined;
  if (fallbackSaysMore && SAYS_LITTLE.has(code)) return undefined;
  if (code === 'rate_limited') {
    const retryAfter = (details as { retryAfter?: unknown } | undefined)?.retryAfter;
    if (typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter > 0) {
      return retryAfter < 60
        ? intl.formatMessage(RETRY_IN.seconds, { seconds: Math.ceil(retryAfter) })
        : intl.formatMessage(RETRY_IN.minutes, { minutes: Math.ceil(retryAfter / 60) });
    }
  }
  return intl.formatMessage((ERROR_MESSAGES as Record<string, MessageDescriptor>)[code]);
}

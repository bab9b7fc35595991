/**
 * Every machine-readable `code` Beacon's APIs put in an error body, by feature. Services can only throw these
 * (AppError takes an ErrorCode) and the web switches on them, so a renamed or new code is a compile error on both
 * sides rather than a screen that silently stops recognising it. Values never change once shipped: clients
 * branch on them.
 */

/** What any service, the shared guards or the edge may answer. */
export const COMMON_ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'unprocessable_entity',
  'too_many_requests',
  'internal_error',
  'error',
  'validation_failed',
  'malformed_json',
  'invalid_characters',
  'rate_limited',
  // outgoing requests to addresses a user configured (webhooks, sources)
  'invalid_url',
  'unresolvable_host',
  'private_address',
  // the shared session guard
  'token_missing',
  'token_expired',
  'token_invalid',
  'session_revoked',
  'session_check_unavailable',
  // the edge, when a service cannot answer
  'service_unavailable',
  'bad_gateway',
] as const;

export const ALERT_ERROR_CODES = [
  'alert_not_found',
  'invalid_alert_id',
  'invalid_alert_status',
  'invalid_idempotency_key',
  'type_required',
  'incomplete_location',
  'severity_priority_mismatch',
  'expiry_in_past',
  'invalid_time_zone',
  'help_request_not_found',
  'idempotency_key_reused',
  'invalid_receipt_event',
  'invalid_receipt',
  'phone_number_required',
  'invalid_push_keys',
  'invalid_push_endpoint',
  'unsupported_push_service',
  'push_credentials_missing',
  'webhook_not_configured',
  'channels_disabled',
  'no_test_target',
  'channel_not_configured',
  'alert_not_dispatched',
  'nothing_to_update',
  'alert_update_conflict',
  // a draft's (or alert's) edit made on an earlier revision than it has now (issue #36)
  'alert_edited_elsewhere',
  'revision_required',
  // drawn areas (issue #19): AlertArea, toAlertArea
  'invalid_area',
  'area_and_location',
  'area_too_few_points',
  'area_too_many_points',
  'area_point_out_of_range',
  'area_self_intersecting',
  'area_too_large',
  // multi-area alerts (issue #42): more parts than AREA_PARTS_MAX
  'area_too_many_parts',
  // the wizard's address search (GET /api/alerts/geocode)
  'geocoder_not_configured',
  'geocoder_unavailable',
  'sms_too_long',
  'template_not_found',
  'template_name_taken',
  'cap_source_not_found',
  'cap_origin_not_found',
  'cap_area_required',
  // the mail relay URL (issue #36): only the options in its allow-list, and Test Connection's overall deadline
  'smtp_option_not_allowed',
  'mail_relay_timeout',
  // nothing goes out unreviewed (issue #38): the audience guard, the area, approval and schedule
  'audience_changed',
  'audience_preview_expired',
  'audience_preview_mismatch',
  'invalid_audience_token',
  'area_required',
  'area_and_everyone',
  'approval_by_author',
  'approval_reason_required',
  'break_glass_reason_required',
  'send_at_in_past',
  'send_at_too_far',
  // help requests are resolved with a note of what was done (issue #38)
  'resolution_note_required',
  // issue #38: a send time after the alert's expiry, or on a draft that is only saved
  'send_at_after_expiry',
  'send_at_with_draft',
  // issue #38: the recurring test alert's schedule (no channel chosen, or one turned off) and its staff test group
  'test_channels_required',
  'test_channel_disabled',
  'test_group_member_not_found',
  // issue #39: a provider callback (receipt, reply, mail event) whose signature is missing, wrong, stale or replayed
  'invalid_signature',
  // issue #39: the Twilio-compatible account in Admin Settings (its SID and number), and its Test Connection
  'invalid_twilio_sid',
  'invalid_phone_number',
  'twilio_credentials_missing',
  // issue #40: only an ended alert (all-clear, expired, cancelled) can be dismissed from the person's feed
  'alert_in_effect',
  // issue #42: contact groups, their members and their CSV import
  'contact_group_not_found',
  // issue #42: an alert's target groups: one that does not exist, more than ALERT_GROUPS_MAX, with everyone
  'alert_group_not_found',
  'alert_too_many_groups',
  'groups_and_everyone',
  'contact_group_name_taken',
  'contact_member_not_found',
  'contact_member_exists',
  'contact_user_not_found',
  'invalid_contact',
  'import_too_large',
  'import_too_many_rows',
  'import_csv_invalid',
  'import_header_invalid',
  'import_preview_stale',
  'import_preview_expired',
] as const;

export const INCIDENT_ERROR_CODES = [
  'incident_not_found',
  'invalid_transition',
  'status_changed',
  'location_required',
  'post_not_found',
  'parent_not_found',
  'bucket_not_found',
  'file_required',
  'file_too_large',
  'multipart_required',
  'unexpected_field',
  'invalid_upload',
  'invalid_image',
  'upload_busy',
  'upload_not_found',
  'image_not_found',
] as const;

export const STORE_ERROR_CODES = ['product_not_found', 'invalid_product_id', 'invalid_price_range', 'affiliate_url_required'] as const;

export const TRAFFIC_ERROR_CODES = ['camera_image_not_found', 'ingest_disabled'] as const;

/**
 * The identity service speaks the hosted auth API (GoTrue / Supabase Auth): the auth client library branches on
 * some of these, so they are spelled exactly as that API spells them.
 */
export const IDENTITY_ERROR_CODES = [
  'validation_failed',
  'bad_json',
  'email_exists',
  'user_already_exists',
  'bad_jwt',
  'not_admin',
  'no_authorization',
  'user_not_found',
  'session_not_found',
  'refresh_token_not_found',
  'refresh_token_already_used',
  'invalid_credentials',
  'email_not_confirmed',
  'user_banned',
  'weak_password',
  'same_password',
  'over_request_rate_limit',
  'over_email_send_rate_limit',
  'otp_expired',
  'mfa_factor_not_found',
  'mfa_factor_name_conflict',
  'too_many_enrolled_mfa_factors',
  'mfa_challenge_expired',
  'mfa_verification_failed',
  'mfa_ip_address_mismatch',
  'insufficient_aal',
  'phone_provider_disabled',
  'email_address_invalid',
  'conflict',
  'not_found',
  'unexpected_failure',
] as const;

export type CommonErrorCode = (typeof COMMON_ERROR_CODES)[number];
export type AlertErrorCode = (typeof ALERT_ERROR_CODES)[number];
export type IncidentErrorCode = (typeof INCIDENT_ERROR_CODES)[number];
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[number];
export type TrafficErrorCode = (typeof TRAFFIC_ERROR_CODES)[number];
export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

/** A code a Beacon service (other than identity) may return. */
export type ServiceErrorCode = CommonErrorCode | AlertErrorCode | IncidentErrorCode | StoreErrorCode | TrafficErrorCode;

/** Every code the web app can receive; `network_error` is the web's own, for a request that got no answer. */
export type ErrorCode = ServiceErrorCode | IdentityErrorCode | 'network_error';

const KNOWN = new Set<string>([
  ...COMMON_ERROR_CODES,
  ...ALERT_ERROR_CODES,
  ...INCIDENT_ERROR_CODES,
  ...STORE_ERROR_CODES,
  ...TRAFFIC_ERROR_CODES,
  ...IDENTITY_ERROR_CODES,
  'network_error',
]);

/** True for a code this release knows; a newer server's unknown code reads as the generic 'error'. */
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && KNOWN.has(code);

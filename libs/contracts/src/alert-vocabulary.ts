/*
 * The words every alert module speaks: severities, categories, channels and the alert's limits. A leaf (it imports
 * nothing), so that alerts.ts, languages.ts and alert-area.ts all build on it without importing each other in a circle.
 * Shared by services and the web app: no Node imports.
 */

/** Stored severities, in ascending order: eligibility compares positions in this list. */
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const ALERT_CATEGORIES = ['weather', 'traffic', 'security', 'public_safety', 'health'] as const;
export type AlertCategory = (typeof ALERT_CATEGORIES)[number];

/** voice: a phone call to the SMS number, for people with the Voice alerts method on (issue #39). */
export const DELIVERY_CHANNELS = ['push', 'sms', 'email', 'voice'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export const ALERT_LIMITS = {
  titleMin: 5,
  titleMax: 100,
  messageMin: 10,
  messageMax: 500,
  radiusKmMin: 1,
  radiusKmMax: 1000,
  radiusKmDefault: 50,
  historyPageSize: 10,
  recentCount: 5,
} as const;

import { RateLimit, RateLimitOptions, RateLimitRule } from '@beacon/common';
import { AlertsEnv } from './env.dto';

/** The limited actions; each route names its own with @RateLimited. */
export type AlertsRateRule =
  'helpRequests' | 'pushSubscriptions' | 'audiencePreview' | 'csvExports' | 'settingsTests' | 'geocode' | 'places' | 'providerCallbacks';

/** The rules of RateLimitModule, from the validated env (ALERTS_RATE_<ACTION>_USER / _IP; admin routes per admin only). */
export function alertsRateLimits(env: AlertsEnv): RateLimitOptions {
  const rules: Record<AlertsRateRule, RateLimitRule> = {
    helpRequests: { user: env.ALERTS_RATE_HELP_REQUESTS_USER, ip: env.ALERTS_RATE_HELP_REQUESTS_IP },
    pushSubscriptions: { user: env.ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER, ip: env.ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP },
    audiencePreview: { user: env.ALERTS_RATE_AUDIENCE_PREVIEW_USER },
    csvExports: { user: env.ALERTS_RATE_CSV_EXPORTS_USER },
    settingsTests: { user: env.ALERTS_RATE_SETTINGS_TESTS_USER },
    geocode: { user: env.ALERTS_RATE_GEOCODE_USER },
    places: { user: env.ALERTS_RATE_PLACES_USER },
    providerCallbacks: { ip: env.ALERTS_RATE_PROVIDER_CALLBACKS_IP },
  };
  return { service: 'alerts', rules };
}

/** @RateLimit with the rule name checked by the compiler. */
export const RateLimited = (rule: AlertsRateRule) => RateLimit(rule);

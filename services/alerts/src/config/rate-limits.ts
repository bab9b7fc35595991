import { RateLimit, RateLimitOptions } from '@beacon/common';
import { AlertsEnv } from './env.dto';

/** The limited actions; each route names its own with @RateLimited. */
export type AlertsRateRule = 'helpRequests' | 'pushSubscriptions';

/** The rules of RateLimitModule, from the validated env (ALERTS_RATE_<ACTION>_USER / _IP). */
export function alertsRateLimits(env: AlertsEnv): RateLimitOptions {
  const rules: Record<AlertsRateRule, { user: string; ip: string }> = {
    helpRequests: { user: env.ALERTS_RATE_HELP_REQUESTS_USER, ip: env.ALERTS_RATE_HELP_REQUESTS_IP },
    pushSubscriptions: { user: env.ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER, ip: env.ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP },
  };
  return { service: 'alerts', rules };
}

/** @RateLimit with the rule name checked by the compiler. */
export const RateLimited = (rule: AlertsRateRule) => RateLimit(rule);

import { RateLimit, RateLimitOptions, RateLimitRule } from '@beacon/common';
import { IncidentsEnv } from '../config/env.dto';

/** The limited actions; each route names its own with @RateLimited. */
export type IncidentsRateRule = 'reports' | 'uploads' | 'posts' | 'comments' | 'likes';

/**
 * The rules of RateLimitModule, from the validated env (INCIDENTS_RATE_<ACTION>_USER / _IP; a report's refusals
 * against INCIDENTS_RATE_REPORTS_REFUSED_USER / _IP instead).
 */
export function incidentsRateLimits(env: IncidentsEnv): RateLimitOptions {
  const rules: Record<IncidentsRateRule, RateLimitRule> = {
    reports: {
      user: env.INCIDENTS_RATE_REPORTS_USER,
      ip: env.INCIDENTS_RATE_REPORTS_IP,
      refused: { user: env.INCIDENTS_RATE_REPORTS_REFUSED_USER, ip: env.INCIDENTS_RATE_REPORTS_REFUSED_IP },
    },
    uploads: { user: env.INCIDENTS_RATE_UPLOADS_USER, ip: env.INCIDENTS_RATE_UPLOADS_IP },
    posts: { user: env.INCIDENTS_RATE_POSTS_USER, ip: env.INCIDENTS_RATE_POSTS_IP },
    comments: { user: env.INCIDENTS_RATE_COMMENTS_USER, ip: env.INCIDENTS_RATE_COMMENTS_IP },
    likes: { user: env.INCIDENTS_RATE_LIKES_USER, ip: env.INCIDENTS_RATE_LIKES_IP },
  };
  return { service: 'incidents', rules };
}

/** @RateLimit with the rule name checked by the compiler. */
export const RateLimited = (rule: IncidentsRateRule) => RateLimit(rule);

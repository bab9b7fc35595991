import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { InjectRedis } from '@beacon/common';
import { IdentityEnv } from '../config/env.dto';
import { AuthError } from './gotrue-error';
import { hashToken } from './secrets';

/** Each limited action, per client IP and (where the request names one) per account. */
const RULES = {
  passwordIp: 'IDENTITY_RATE_PASSWORD_IP',
  passwordAccount: 'IDENTITY_RATE_PASSWORD_ACCOUNT',
  refreshIp: 'IDENTITY_RATE_REFRESH_IP',
  signupIp: 'IDENTITY_RATE_SIGNUP_IP',
  signupAccount: 'IDENTITY_RATE_SIGNUP_ACCOUNT',
  recoverIp: 'IDENTITY_RATE_RECOVER_IP',
  verifyIp: 'IDENTITY_RATE_VERIFY_IP',
  mfaIp: 'IDENTITY_RATE_MFA_IP',
  mfaAccount: 'IDENTITY_RATE_MFA_ACCOUNT',
} as const satisfies Record<string, keyof IdentityEnv>;

export type RateRule = keyof typeof RULES;

/**
 * Request limits kept in Redis, so they hold across replicas. If Redis is unreachable, each replica falls back
 * to counting in memory rather than refusing every sign-in.
 */
@Injectable()
export class RateLimits {
  private readonly limiters: Record<RateRule, RateLimiterAbstract>;

  constructor(@InjectRedis() redis: Redis, env: IdentityEnv) {
    const build = (rule: RateRule) => {
      const [points, duration] = (env[RULES[rule]] as string).split('/').map(Number);
      return new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `identity:rl:${rule}`,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ points, duration }),
      });
    };
    this.limiters = Object.fromEntries((Object.keys(RULES) as RateRule[]).map((r) => [r, build(r)])) as unknown as Record<RateRule, RateLimiterAbstract>;
  }

  /** Counts one request; over the limit it throws 429 with Retry-After. Account keys are hashed (no emails in Redis). */
  async consume(rule: RateRule, key: string | null | undefined) {
    if (!key) return;
    const id = rule.endsWith('Account') ? hashToken(key.toLowerCase()) : key;
    try {
      await this.limiters[rule].consume(id);
    } catch (e) {
      if (e instanceof RateLimiterRes) {
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, e.msBeforeNext / 1000);
      }
      throw e;
    }
  }
}

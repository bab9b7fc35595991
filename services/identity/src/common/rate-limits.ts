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
  passwordAccountCeiling: 'IDENTITY_RATE_PASSWORD_ACCOUNT_CEILING',
  refreshIp: 'IDENTITY_RATE_REFRESH_IP',
  signupIp: 'IDENTITY_RATE_SIGNUP_IP',
  signupAccount: 'IDENTITY_RATE_SIGNUP_ACCOUNT',
  recoverIp: 'IDENTITY_RATE_RECOVER_IP',
  verifyIp: 'IDENTITY_RATE_VERIFY_IP',
  mfaIp: 'IDENTITY_RATE_MFA_IP',
  mfaAccount: 'IDENTITY_RATE_MFA_ACCOUNT',
} as const satisfies Record<string, keyof IdentityEnv>;

export type RateRule = keyof typeof RULES;

/** The longest an attempt waits once an account's failures pass the account-wide ceiling. */
export const CEILING_MAX_DELAY_MS = 5000;

const tooMany = (msBeforeNext: number) => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, msBeforeNext / 1000);

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
    try {
      await this.limiters[rule].consume(this.keyOf(rule, key));
    } catch (e) {
      if (e instanceof RateLimiterRes) throw tooMany(e.msBeforeNext);
      throw e;
    }
  }

  /**
   * Before a password is checked. Failures are counted per account AND address: a stranger guessing from elsewhere
   * can no longer keep the owner out (ten wrong guesses from anywhere used to lock an admin out for 15 minutes).
   * Past the much higher account-wide ceiling of failures, every attempt on the account is slowed down, never
   * refused, so the owner still gets in with the right password. Returns how long this attempt was held back.
   */
  async beforePasswordAttempt(email: string, ip: string | null): Promise<number> {
    const pair = await this.limiters.passwordAccount.get(this.pairKey(email, ip));
    if (pair && pair.consumedPoints >= this.limiters.passwordAccount.points) throw tooMany(pair.msBeforeNext);
    const account = await this.limiters.passwordAccountCeiling.get(this.keyOf('passwordAccountCeiling', email));
    const over = account ? account.consumedPoints - this.limiters.passwordAccountCeiling.points : 0;
    if (over <= 0) return 0;
    const delay = Math.min(CEILING_MAX_DELAY_MS, 250 * 2 ** Math.min(over - 1, 5));
    await new Promise((r) => setTimeout(r, delay));
    return delay;
  }

  /** A wrong password: one failure for this account from this address, and one towards the account-wide ceiling. */
  async passwordFailed(email: string, ip: string | null) {
    await Promise.all([
      this.limiters.passwordAccount.penalty(this.pairKey(email, ip)),
      this.limiters.passwordAccountCeiling.penalty(this.keyOf('passwordAccountCeiling', email)),
    ]);
  }

  /** The right password: the address starts afresh for this account. */
  async passwordSucceeded(email: string, ip: string | null) {
    await this.limiters.passwordAccount.delete(this.pairKey(email, ip));
  }

  private keyOf(rule: RateRule, key: string) {
    return rule.endsWith('Account') || rule.endsWith('AccountCeiling') ? hashToken(key.toLowerCase()) : key;
  }

  private pairKey(email: string, ip: string | null) {
    return hashToken(`${email.trim().toLowerCase()}\n${ip ?? ''}`);
  }
}

import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { createRateLimiter, InjectRedis, parseRate } from '@beacon/common';
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

const tooMany = (msBeforeNext: number) =>
  new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {}, Math.max(1, Math.ceil(msBeforeNext / 1000)));

/** Waits 250 ms for the first failure past the ceiling, doubling up to CEILING_MAX_DELAY_MS. */
export function ceilingDelayMs(failuresOverCeiling: number): number {
  if (failuresOverCeiling <= 0) return 0;
  return Math.min(CEILING_MAX_DELAY_MS, 250 * 2 ** Math.min(failuresOverCeiling - 1, 5));
}

/** An attempt whose outcome is not known yet: it counts as a failure unless `succeeded` is called. */
export interface PendingAttempt {
  /** How long the attempt was held back (the account is past its ceiling of failures). */
  delayedMs: number;
  succeeded(): Promise<void>;
}

/**
 * Request limits kept in Redis (the limiters libs/common builds for every service), so they hold across replicas.
 * If Redis is unreachable, each replica falls back to counting in memory rather than refusing every sign-in.
 */
@Injectable()
export class RateLimits {
  private readonly limiters: Record<RateRule, RateLimiterAbstract>;

  constructor(@InjectRedis() redis: Redis, env: IdentityEnv) {
    // identity's own key prefix (older than the shared `rl:<service>:`), kept so a deploy does not reset the counts
    const build = (rule: RateRule) => createRateLimiter(redis, `identity:rl:${rule}`, parseRate(env[RULES[rule]] as string));
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
   * The attempt takes its points now and gives them back if the password is right: counting only after the check
   * let a burst of parallel guesses all pass a limit none of them had reached yet.
   * Past the much higher account-wide ceiling of failures, every attempt on the account is slowed down, never
   * refused, so the owner still gets in with the right password.
   */
  async beginPasswordAttempt(email: string, ip: string | null): Promise<PendingAttempt> {
    const pair = this.pairKey(email, ip);
    const account = this.keyOf('passwordAccountCeiling', email);
    await this.consumeKey('passwordAccount', pair);
    const counted = await this.limiters.passwordAccountCeiling.penalty(account);
    const delayedMs = ceilingDelayMs(counted.consumedPoints - 1 - this.limiters.passwordAccountCeiling.points);
    if (delayedMs) await new Promise((r) => setTimeout(r, delayedMs));
    return {
      delayedMs,
      succeeded: async () => {
        await Promise.all([this.limiters.passwordAccount.delete(pair), this.limiters.passwordAccountCeiling.reward(account)]);
      },
    };
  }

  /**
   * Before a TOTP code is checked: wrong codes per account, taken up front like passwords and returned by a right
   * code, so the owner's own step-ups never count. Kept per account rather than per account and address: only
   * someone who already holds the password (an aal1 session) can try codes, and six digits are too few to give
   * every address of a botnet its own allowance.
   */
  async beginMfaAttempt(userId: string): Promise<PendingAttempt> {
    const key = this.keyOf('mfaAccount', userId);
    await this.consumeKey('mfaAccount', key);
    return { delayedMs: 0, succeeded: async () => void (await this.limiters.mfaAccount.delete(key)) };
  }

  private async consumeKey(rule: RateRule, key: string) {
    try {
      await this.limiters[rule].consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw tooMany(e.msBeforeNext);
      throw e;
    }
  }

  private keyOf(rule: RateRule, key: string) {
    return rule.endsWith('Account') || rule.endsWith('AccountCeiling') ? hashToken(key.toLowerCase()) : key;
  }

  private pairKey(email: string, ip: string | null) {
    return hashToken(`${email}\n${ip ?? ''}`);
  }
}

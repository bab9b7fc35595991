import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { InjectRedis } from '@beacon/common';
import { IdentityEnv, identitySettings } from '../config/env.dto';
import { AuthError } from '../common/gotrue-error';
import { safeRedirect } from '../common/redirects';
import { hashToken, randomToken } from '../common/secrets';
import { confirmationMail, emailChangeMail, recoveryMail } from '../mail/templates';
import { UserRow } from '../users/user.model';
import { UsersRepository } from '../users/users.repository';
import { OneTimeTokensRepository, OneTimeTokenType } from './one-time-tokens.repository';

/** The `type` the hosted service puts in mail links for each kind of token. */
const VERIFY_TYPE: Record<OneTimeTokenType, string> = { confirmation: 'signup', recovery: 'recovery', email_change: 'email_change' };
const SENT_AT_COLUMN = { confirmation: 'confirmation_sent_at', recovery: 'recovery_sent_at', email_change: 'email_change_sent_at' } as const;

/**
 * Mail links, the hosted service's way: `<api>/verify?token=…&type=…&redirect_to=…`. /verify consumes the
 * single-use token and redirects to redirect_to with the new session in the URL fragment.
 */
@Injectable()
export class MailLinksService {
  private readonly settings: ReturnType<typeof identitySettings>;

  constructor(
    private readonly env: IdentityEnv,
    private readonly tokens: OneTimeTokensRepository,
    private readonly users: UsersRepository,
    @InjectRedis() private readonly redis: Redis,
  ) {
    this.settings = identitySettings(env);
  }

  /** A redirect_to from the client, if allowed, else the default page for this kind of link. */
  redirectFor(type: OneTimeTokenType | 'default', requested?: string | null): string {
    const fallback = type === 'recovery' ? `${this.settings.siteUrl}/reset-password` : `${this.settings.siteUrl}/`;
    return safeRedirect(requested, fallback, this.settings.siteUrl, this.settings.redirectAllowList);
  }

  /**
   * At most one mail of a kind per address per interval, counted in Redis for every address asked about
   * (known or not, so the limit reveals nothing). Throws 429 with Retry-After when too soon.
   */
  async claimSendSlot(type: OneTimeTokenType, email: string): Promise<void> {
    const key = `identity:mail:${type}:${hashToken(email)}`;
    const ok = await this.redis.set(key, '1', 'EX', this.env.IDENTITY_MAIL_INTERVAL_SECONDS, 'NX');
    if (ok) return;
    const ttl = Math.max(1, await this.redis.ttl(key));
    throw new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${ttl} seconds.`, {}, ttl);
  }

  /** Stores a fresh token for the user (inside the caller's transaction) and returns the mail to send after commit. */
  async prepare(db: EntityManager, type: OneTimeTokenType, user: UserRow, to: string, redirectTo?: string | null) {
    const token = randomToken();
    await this.tokens.replace(db, { userId: user.id, type, hash: hashToken(token), relatesTo: to, ttlSeconds: this.env.IDENTITY_MAIL_LINK_TTL_SECONDS });
    await this.users.touch(user.id, SENT_AT_COLUMN[type], db);
    const link = new URL(`${this.settings.apiUrl}/verify`);
    link.searchParams.set('token', token);
    link.searchParams.set('type', VERIFY_TYPE[type]);
    link.searchParams.set('redirect_to', this.redirectFor(type, redirectTo));
    const template = type === 'recovery' ? recoveryMail : type === 'confirmation' ? confirmationMail : emailChangeMail;
    return template(to, link.toString());
  }
}

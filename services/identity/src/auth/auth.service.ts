import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IdentityEnv, identitySettings } from '../config/env.dto';
import { AuthError } from '../common/gotrue-error';
import { normalizeEmail } from '../common/email';
import { RateLimits } from '../common/rate-limits';
import { MailerService } from '../mail/mailer.service';
import { MailLinksService } from '../recovery/mail-links.service';
import { ClientInfo, TokenResponse, TokensService } from '../sessions/tokens.service';
import { SessionsRepository } from '../sessions/sessions.repository';
import { assertAcceptablePassword, checkPasswordStrength, PasswordHasher } from '../users/password';
import { isBanned, presentUser, PresentedUser, UserRow } from '../users/user.model';
import { assertMetadataSize } from '../users/user.service';
import { UsersRepository } from '../users/users.repository';
import type { Caller } from './auth.guard';

export const MISSING_CREDENTIALS = 'You must provide either an email or phone number and a password';
export const INVALID_LOGIN = 'Invalid login credentials';

export interface Credentials {
  email?: string;
  phone?: string;
  password?: string;
  data?: Record<string, unknown>;
}

export type LogoutScope = 'global' | 'local' | 'others';

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  private readonly settings: ReturnType<typeof identitySettings>;

  constructor(
    private readonly ds: DataSource,
    private readonly env: IdentityEnv,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokensService,
    private readonly links: MailLinksService,
    private readonly mailer: MailerService,
    private readonly limits: RateLimits,
  ) {
    this.settings = identitySettings(env);
  }

  /**
   * POST /signup. With autoconfirm the user is signed in at once (a token response); otherwise a confirmation
   * mail goes out and the response is the unconfirmed user. Like the hosted service, an already registered and
   * confirmed address gets 'User already registered' with autoconfirm, and an indistinguishable fake user without.
   */
  async signUp(body: Credentials, redirectTo: string | undefined, client: ClientInfo): Promise<TokenResponse | PresentedUser> {
    if (body.phone && !body.email) throw new AuthError(400, 'phone_provider_disabled', 'Phone signups are disabled');
    if (!body.email) throw new AuthError(400, 'validation_failed', MISSING_CREDENTIALS);
    if (!body.password) throw new AuthError(400, 'validation_failed', 'Signup requires a valid password');
    const email = normalizeEmail(body.email);
    await this.limits.consume('signupIp', client.ip);
    await this.limits.consume('signupAccount', email);
    assertAcceptablePassword(body.password);
    assertMetadataSize(body.data);
    const userMetadata = body.data ?? {};
    // Every sign-up that may send a confirmation mail counts against the address, registered or not.
    if (!this.settings.autoconfirm) await this.links.claimSendSlot('confirmation', email);

    const existing = await this.users.findByEmail(email);
    if (existing) return this.repeatedSignUp(existing, userMetadata, redirectTo);

    const passwordHash = await this.hasher.hash(body.password);
    const role = this.grantsAdminByEmail(email) ? 'admin' : 'user';
    const result = await this.ds.transaction(async (tx) => {
      const user = await this.users.insert({ email, passwordHash, role, userMetadata, confirmed: this.settings.autoconfirm }, tx);
      if (!user) return { kind: 'taken' as const }; // registered concurrently
      if (this.settings.autoconfirm) return { kind: 'signed_in' as const, session: await this.tokens.startSession(tx, user, 'password', client) };
      const mail = await this.links.prepare(tx, 'confirmation', user, user.email, redirectTo);
      return { kind: 'unconfirmed' as const, mail, user: (await this.users.findById(user.id, tx))! };
    });
    if (result.kind === 'taken') return this.repeatedSignUp((await this.users.findByEmail(email))!, userMetadata, redirectTo);
    if (result.kind === 'signed_in') return result.session;
    this.mailer.sendInBackground(result.mail);
    return presentUser(result.user);
  }

  private async repeatedSignUp(existing: UserRow, userMetadata: Record<string, unknown>, redirectTo: string | undefined): Promise<PresentedUser> {
    if (this.settings.autoconfirm) throw new AuthError(422, 'user_already_exists', 'User already registered');
    if (!existing.email_confirmed_at && !isBanned(existing)) {
      // The first confirmation mail may have been lost: a new one replaces it.
      const mail = await this.ds.transaction((tx) => this.links.prepare(tx, 'confirmation', existing, existing.email, redirectTo));
      this.mailer.sendInBackground(mail);
    }
    // Without autoconfirm the caller cannot tell a new address from a taken one: same shape, random id.
    const now = new Date();
    return presentUser({
      ...existing,
      id: randomUUID(),
      identity_id: randomUUID(),
      user_metadata: userMetadata,
      app_metadata: {},
      app_role: 'user',
      email_confirmed_at: null,
      confirmation_sent_at: now,
      recovery_sent_at: null,
      email_change: null,
      email_change_sent_at: null,
      last_sign_in_at: null,
      banned_until: null,
      created_at: now,
      updated_at: now,
    });
  }

  /** POST /token?grant_type=password. Unknown accounts cost the same hashing work as wrong passwords. */
  async signInWithPassword(body: Credentials, client: ClientInfo): Promise<TokenResponse> {
    if (body.phone && !body.email) throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    if (!body.email || !body.password) throw new AuthError(400, 'validation_failed', MISSING_CREDENTIALS);
    await this.limits.consume('passwordIp', client.ip);
    const email = body.email.trim().toLowerCase();
    const attempt = await this.limits.beginPasswordAttempt(email, client.ip);
    const user = await this.users.findByEmail(email);
    const valid = await this.hasher.verify(user?.encrypted_password ?? null, body.password);
    if (!user || !valid) throw new AuthError(400, 'invalid_credentials', INVALID_LOGIN);
    await attempt.succeeded();
    if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');
    if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');

    const response = await this.ds.transaction(async (tx) => {
      const signedIn = user.app_role !== 'admin' && this.grantsAdminByEmail(email) ? (await this.users.update(user.id, { role: 'admin' }, tx))! : user;
      return this.tokens.startSession(tx, signedIn, 'password', client);
    });
    const weak = checkPasswordStrength(body.password);
    return weak ? { ...response, weak_password: weak } : response;
  }

  /** POST /logout: this session (local), every other one (others) or all of the user's sessions (global). */
  async logout(caller: Caller, scope: LogoutScope): Promise<void> {
    if (scope === 'local') await this.sessions.delete(caller.session.id);
    else if (scope === 'others') await this.sessions.deleteOthersOfUser(caller.user.id, caller.session.id);
    else await this.sessions.deleteAllOfUser(caller.user.id);
  }

  /**
   * ADMIN_EMAILS grants the admin role at sign-up and sign-in. In production with autoconfirm on, an address is
   * never proven, so the list is not applied there (anyone could register the address first).
   */
  private grantsAdminByEmail(email: string): boolean {
    if (!this.settings.adminEmails.has(email)) return false;
    if (this.env.NODE_ENV === 'production' && this.settings.autoconfirm) {
      this.logger.warn('ADMIN_EMAILS is ignored while IDENTITY_AUTOCONFIRM is on in production');
      return false;
    }
    return true;
  }
}

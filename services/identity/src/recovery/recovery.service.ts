import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthError } from '../common/gotrue-error';
import { normalizeEmail } from '../common/email';
import { RateLimits } from '../common/rate-limits';
import { hashToken } from '../common/secrets';
import { MailerService } from '../mail/mailer.service';
import { ClientInfo, TokenResponse, TokensService } from '../sessions/tokens.service';
import { isBanned } from '../users/user.model';
import { UsersRepository } from '../users/users.repository';
import { MailLinksService } from './mail-links.service';
import { OneTimeTokensRepository, OneTimeTokenType } from './one-time-tokens.repository';

/** Verification types the hosted service accepts for email links. */
const TYPES: Record<string, OneTimeTokenType[]> = {
  signup: ['confirmation'],
  email: ['confirmation'],
  recovery: ['recovery'],
  email_change: ['email_change'],
};

export const LINK_INVALID = 'Email link is invalid or has expired';

@Injectable()
export class RecoveryService {
  constructor(
    private readonly ds: DataSource,
    private readonly users: UsersRepository,
    private readonly oneTimeTokens: OneTimeTokensRepository,
    private readonly links: MailLinksService,
    private readonly mailer: MailerService,
    private readonly tokens: TokensService,
    private readonly limits: RateLimits,
  ) {}

  /**
   * POST /recover. Answers `{}` whether or not the address has an account; the mail goes out in the background
   * so timing tells nothing either. One mail per address per interval (429 after).
   */
  async recover(rawEmail: string, redirectTo: string | undefined, client: ClientInfo): Promise<Record<string, never>> {
    const email = normalizeEmail(rawEmail);
    await this.limits.consume('recoverIp', client.ip);
    await this.links.claimSendSlot('recovery', email);
    const user = await this.users.findByEmail(email);
    if (user && !isBanned(user)) {
      const mail = await this.ds.transaction((tx) => this.links.prepare(tx, 'recovery', user, user.email, redirectTo));
      this.mailer.sendInBackground(mail);
    }
    return {};
  }

  /**
   * POST/GET /verify: consumes a single-use token (one conditional UPDATE, so concurrent uses succeed once),
   * applies what it proves (address confirmed, recovery, email change) and opens a session.
   */
  async verify(type: string | undefined, token: string | undefined, client: ClientInfo): Promise<{ response: TokenResponse; type: string }> {
    if (!token) throw new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash');
    if (!type) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
    const types = TYPES[type];
    if (!types) throw new AuthError(400, 'validation_failed', 'Unsupported verification type');
    await this.limits.consume('verifyIp', client.ip);

    const response = await this.ds.transaction(async (tx) => {
      const used = await this.oneTimeTokens.consume(tx, hashToken(token), types);
      if (!used) throw new AuthError(403, 'otp_expired', LINK_INVALID);
      let user = await this.users.findByIdForUpdate(tx, used.user_id);
      if (!user) throw new AuthError(403, 'otp_expired', LINK_INVALID);
      if (isBanned(user)) throw new AuthError(400, 'user_banned', 'User is banned');

      if (used.token_type === 'email_change') {
        if (user.email_change !== used.relates_to) throw new AuthError(403, 'otp_expired', LINK_INVALID);
        const taken = await this.users.findByEmail(used.relates_to, tx);
        if (taken && taken.id !== user.id) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        user = (await this.users.update(user.id, { email: used.relates_to, emailChange: null, confirmed: true }, tx))!;
      } else if (!user.email_confirmed_at) {
        // Following a link sent to the address proves the address, for recovery as for sign-up.
        user = (await this.users.update(user.id, { confirmed: true }, tx))!;
      }
      return this.tokens.startSession(tx, user, used.token_type === 'recovery' ? 'recovery' : 'otp', client);
    });
    return { response, type };
  }
}

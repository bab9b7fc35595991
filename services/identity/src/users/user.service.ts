import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/auth.guard';
import { AuthError } from '../common/gotrue-error';
import { normalizeEmail } from '../common/email';
import { MailerService } from '../mail/mailer.service';
import { MailLinksService } from '../recovery/mail-links.service';
import { SessionsRepository } from '../sessions/sessions.repository';
import { assertAcceptablePassword, PasswordHasher } from './password';
import { presentUser, PresentedUser } from './user.model';
import { UsersRepository } from './users.repository';

export interface UserUpdate {
  email?: string;
  password?: string;
  data?: Record<string, unknown>;
  phone?: string;
  app_metadata?: Record<string, unknown>;
}

/** User metadata travels in every access token: keep it small. */
export const MAX_METADATA_BYTES = 16 * 1024;

export function assertMetadataSize(data: Record<string, unknown> | undefined) {
  if (data && Buffer.byteLength(JSON.stringify(data)) > MAX_METADATA_BYTES) {
    throw new AuthError(400, 'validation_failed', `User metadata cannot be larger than ${MAX_METADATA_BYTES / 1024} KB`);
  }
}

@Injectable()
export class UserService {
  constructor(
    private readonly ds: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly hasher: PasswordHasher,
    private readonly links: MailLinksService,
    private readonly mailer: MailerService,
  ) {}

  async get(caller: Caller): Promise<PresentedUser> {
    return presentUser(caller.user, await this.users.factors(caller.user.id));
  }

  /**
   * PUT /user. A new password ends every other session of the user; a new email is only taken once the link
   * mailed to it is followed. With a verified factor, both need an aal2 session.
   */
  async update(caller: Caller, body: UserUpdate, redirectTo: string | undefined): Promise<PresentedUser> {
    const { user, session } = caller;
    if (body.app_metadata !== undefined) throw new AuthError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
    if (body.phone) throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    assertMetadataSize(body.data);
    const newEmail = body.email ? normalizeEmail(body.email) : undefined;
    const changesEmail = !!newEmail && newEmail !== user.email;

    if ((body.password || changesEmail) && session.aal !== 'aal2' && (await this.users.verifiedFactorCount(user.id)) > 0) {
      throw new AuthError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.');
    }
    let passwordHash: string | undefined;
    if (body.password !== undefined) {
      assertAcceptablePassword(body.password);
      if (await this.hasher.verify(user.encrypted_password, body.password)) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
      }
      passwordHash = await this.hasher.hash(body.password);
    }
    if (changesEmail) {
      const taken = await this.users.findByEmail(newEmail);
      if (taken) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      await this.links.claimSendSlot('email_change', newEmail);
    }

    const { updated, mail } = await this.ds.transaction(async (tx) => {
      let updated = (await this.users.update(user.id, { passwordHash, userMetadata: body.data, emailChange: changesEmail ? newEmail : undefined }, tx))!;
      if (passwordHash) await this.sessions.deleteOthersOfUser(user.id, session.id, tx);
      const mail = changesEmail ? await this.links.prepare(tx, 'email_change', updated, newEmail, redirectTo) : null;
      if (mail) updated = (await this.users.findById(user.id, tx))!;
      return { updated, mail };
    });
    if (mail) this.mailer.sendInBackground(mail);
    return presentUser(updated, await this.users.factors(user.id));
  }
}

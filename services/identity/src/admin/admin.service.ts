import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isRole, ROLES, type Role } from '@beacon/contracts';
import type { Caller } from '../auth/auth.guard';
import { AuthError } from '../common/gotrue-error';
import { normalizeEmail } from '../common/email';
import { isUuid } from '../common/uuid';
import { SessionsRepository } from '../sessions/sessions.repository';
import { assertAcceptablePassword, PasswordHasher } from '../users/password';
import { presentUser, PresentedUser, UserRow } from '../users/user.model';
import { assertMetadataSize } from '../users/user.service';
import { UserChanges, UsersRepository } from '../users/users.repository';

export interface AdminUserAttributes {
  email?: string;
  password?: string;
  email_confirm?: boolean;
  user_metadata?: Record<string, unknown>;
  app_metadata?: Record<string, unknown>;
  ban_duration?: string;
}

export const USER_NOT_FOUND = 'User not found';
export const EMAIL_EXISTS = 'A user with this email address has already been registered';

/** Parses the hosted service's ban_duration: 'none' lifts a ban, otherwise a Go-style duration like '24h' or '90m'. */
export function banUntil(duration: string | undefined): Date | null | undefined {
  if (duration === undefined) return undefined;
  if (duration === 'none') return null;
  const m = /^(\d{1,7})(h|m|s)$/.exec(duration);
  if (!m) throw new AuthError(400, 'validation_failed', "ban_duration must be 'none' or a duration like '24h', '90m' or '30s'");
  const seconds = Number(m[1]) * { h: 3600, m: 60, s: 1 }[m[2] as 'h' | 'm' | 's'];
  return new Date(Date.now() + seconds * 1000);
}

const ROLE_MESSAGE = `app_metadata.role must be one of: ${ROLES.join(', ')}`;

/** The Beacon role lives in app_metadata.role; everything else in app_metadata is stored as given. */
function splitAppMetadata(appMetadata: Record<string, unknown> | undefined): { role?: Role; rest?: Record<string, unknown> } {
  if (!appMetadata) return {};
  const { role, provider: _p, providers: _ps, ...rest } = appMetadata;
  if (role !== undefined && !isRole(role)) throw new AuthError(400, 'validation_failed', ROLE_MESSAGE);
  return { role, rest };
}

@Injectable()
export class AdminService {
  constructor(
    private readonly ds: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async list(page: number, perPage: number, filter?: string) {
    const { users, total } = await this.users.page({ offset: (page - 1) * perPage, limit: perPage, filter: filter?.trim() || undefined });
    return { users: users.map((u) => presentUser(u)), total };
  }

  async get(id: string): Promise<PresentedUser> {
    const user = await this.find(id);
    return presentUser(user, await this.users.factors(user.id));
  }

  async create(body: AdminUserAttributes): Promise<PresentedUser> {
    if (!body.email) throw new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format');
    const email = normalizeEmail(body.email);
    if (body.password !== undefined) assertAcceptablePassword(body.password);
    assertMetadataSize(body.user_metadata);
    const { role, rest } = splitAppMetadata(body.app_metadata);
    const user = await this.users.insert({
      email,
      passwordHash: body.password !== undefined ? await this.hasher.hash(body.password) : null,
      role: role ?? 'user',
      userMetadata: body.user_metadata ?? {},
      appMetadata: rest ?? {},
      confirmed: body.email_confirm === true,
      bannedUntil: banUntil(body.ban_duration) ?? null,
    });
    if (!user) throw new AuthError(422, 'email_exists', EMAIL_EXISTS);
    return presentUser(user);
  }

  /**
   * A new password, a role change (to any other role, up or down) or a ban ends the user's sessions, so the change
   * takes effect within seconds everywhere rather than whenever they sign out. Admins cannot demote, ban or delete
   * themselves (no lock-out).
   */
  async update(caller: Caller, id: string, body: AdminUserAttributes): Promise<PresentedUser> {
    const user = await this.find(id);
    const { role, rest } = splitAppMetadata(body.app_metadata);
    const bannedUntil = banUntil(body.ban_duration);
    if (user.id === caller.user.id && ((role && role !== 'admin') || bannedUntil)) {
      throw new AuthError(422, 'validation_failed', 'You cannot remove your own admin role or ban yourself');
    }
    if (body.password !== undefined) assertAcceptablePassword(body.password);
    assertMetadataSize(body.user_metadata);
    const changes: UserChanges = {
      email: body.email !== undefined ? normalizeEmail(body.email) : undefined,
      passwordHash: body.password !== undefined ? await this.hasher.hash(body.password) : undefined,
      role,
      userMetadata: body.user_metadata,
      appMetadata: rest && Object.keys(rest).length ? rest : undefined,
      confirmed: body.email_confirm,
      bannedUntil,
    };
    if (changes.email && changes.email !== user.email && (await this.users.findByEmail(changes.email))) {
      throw new AuthError(422, 'email_exists', EMAIL_EXISTS);
    }
    const endSessions = !!changes.passwordHash || (role !== undefined && role !== user.app_role) || !!bannedUntil;
    const updated = await this.ds.transaction(async (tx) => {
      const row = await this.users.update(user.id, changes, tx);
      if (endSessions) await this.sessions.deleteAllOfUser(user.id, tx);
      return row!;
    });
    return presentUser(updated, await this.users.factors(user.id));
  }

  async delete(caller: Caller, id: string): Promise<Record<string, never>> {
    const user = await this.find(id);
    if (user.id === caller.user.id) throw new AuthError(422, 'validation_failed', 'You cannot delete your own account here');
    // the sessions end first, and everywhere: the foreign key's cascade would end them silently
    await this.ds.transaction(async (tx) => {
      await this.sessions.deleteAllOfUser(user.id, tx);
      await this.users.delete(user.id, tx);
    });
    return {};
  }

  private async find(id: string): Promise<UserRow> {
    const user = isUuid(id) ? await this.users.findById(id) : null;
    if (!user) throw new AuthError(404, 'user_not_found', USER_NOT_FOUND);
    return user;
  }
}

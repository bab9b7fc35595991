import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Role } from '@beacon/auth';
import { AuthError } from '../common/gotrue-error';
import { FactorRow, UserRow } from './user.model';

type Db = DataSource | EntityManager;

export interface NewUser {
  email: string;
  passwordHash: string | null;
  role: Role;
  userMetadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmed: boolean;
  bannedUntil?: Date | null;
}

export interface UserChanges {
  email?: string;
  passwordHash?: string;
  role?: Role;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmed?: boolean;
  bannedUntil?: Date | null;
  emailChange?: string | null;
}

/** Sorting and filtering of the admin list happen in SQL. */
export interface UserPage {
  users: UserRow[];
  total: number;
}

/** Merges a metadata patch like the hosted service: top-level keys replace, a null value removes the key. */
const mergePatch = (column: string) => (p: string) =>
  `(${column} || ${p}::jsonb) - ARRAY(SELECT key FROM jsonb_each(${p}::jsonb) WHERE jsonb_typeof(value) = 'null')`;

@Injectable()
export class UsersRepository {
  constructor(private readonly ds: DataSource) {}

  async findById(id: string, db: Db = this.ds): Promise<UserRow | null> {
    const [row] = await db.query(`SELECT * FROM identity.users WHERE id = $1`, [id]);
    return row ?? null;
  }

  async findByIdForUpdate(tx: EntityManager, id: string): Promise<UserRow | null> {
    const [row] = await tx.query(`SELECT * FROM identity.users WHERE id = $1 FOR UPDATE`, [id]);
    return row ?? null;
  }

  async findByEmail(email: string, db: Db = this.ds): Promise<UserRow | null> {
    const [row] = await db.query(`SELECT * FROM identity.users WHERE email = $1`, [email]);
    return row ?? null;
  }

  /** Inserts unless the email is taken (then null): the unique index decides, not a racy read. */
  async insert(u: NewUser, db: Db = this.ds): Promise<UserRow | null> {
    const [row] = await db.query(
      `INSERT INTO identity.users (email, encrypted_password, app_role, user_metadata, app_metadata, email_confirmed_at, banned_until)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END, $7)
       ON CONFLICT (email) DO NOTHING
       RETURNING *`,
      [u.email, u.passwordHash, u.role, u.userMetadata, u.appMetadata ?? {}, u.confirmed, u.bannedUntil ?? null],
    );
    return row ?? null;
  }

  async update(id: string, c: UserChanges, db: Db = this.ds): Promise<UserRow | null> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown, expr = (p: string) => p) => {
      params.push(value);
      sets.push(`${column} = ${expr(`$${params.length}`)}`);
    };
    if (c.email !== undefined) set('email', c.email);
    if (c.passwordHash !== undefined) set('encrypted_password', c.passwordHash);
    if (c.role !== undefined) set('app_role', c.role);
    if (c.userMetadata !== undefined) set('user_metadata', c.userMetadata, mergePatch('user_metadata'));
    if (c.appMetadata !== undefined) set('app_metadata', c.appMetadata, mergePatch('app_metadata'));
    if (c.confirmed !== undefined) set('email_confirmed_at', c.confirmed, (p) => `CASE WHEN ${p}::boolean THEN coalesce(email_confirmed_at, now()) END`);
    if (c.bannedUntil !== undefined) set('banned_until', c.bannedUntil);
    if (c.emailChange !== undefined) set('email_change', c.emailChange);
    sets.push('updated_at = now()');
    try {
      const [rows] = await db.query(`UPDATE identity.users SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
      return rows?.[0] ?? null;
    } catch (e) {
      // Two users claiming one address at once: the unique index decides.
      if ((e as { code?: string }).code === '23505') throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      throw e;
    }
  }

  async touch(id: string, column: 'last_sign_in_at' | 'recovery_sent_at' | 'confirmation_sent_at' | 'email_change_sent_at', db: Db = this.ds) {
    await db.query(`UPDATE identity.users SET ${column} = now() WHERE id = $1`, [id]);
  }

  async delete(id: string, db: Db = this.ds): Promise<boolean> {
    const [, count] = await db.query(`DELETE FROM identity.users WHERE id = $1`, [id]);
    return count > 0;
  }

  async page(opts: { offset: number; limit: number; filter?: string }): Promise<UserPage> {
    const pattern = opts.filter ? `%${opts.filter.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
    const rows: (UserRow & { total: string })[] = await this.ds.query(
      `SELECT *, count(*) OVER () AS total FROM identity.users
        WHERE $1::text IS NULL OR email ILIKE $1
        ORDER BY created_at, id
        OFFSET $2 LIMIT $3`,
      [pattern, opts.offset, opts.limit],
    );
    if (rows.length) return { users: rows.map(({ total: _t, ...u }) => u as UserRow), total: Number(rows[0].total) };
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM identity.users WHERE $1::text IS NULL OR email ILIKE $1`, [pattern]);
    return { users: [], total: n };
  }

  async factors(userId: string, db: Db = this.ds): Promise<FactorRow[]> {
    return db.query(`SELECT * FROM identity.mfa_factors WHERE user_id = $1 ORDER BY created_at`, [userId]);
  }

  async verifiedFactorCount(userId: string, db: Db = this.ds): Promise<number> {
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM identity.mfa_factors WHERE user_id = $1 AND status = 'verified'`, [userId]);
    return n;
  }
}

import type { DataSource, EntityManager } from 'typeorm';
import { ROLES, type Role } from '@beacon/contracts';
import type { SessionsRepository } from '../sessions/sessions.repository';
import { hashPassword } from './password';

type Db = DataSource | EntityManager;

/**
 * Account provisioning outside the HTTP API: the development seed and `npm run admin:grant`. Works on a plain
 * DataSource (no Nest), against the identity schema.
 */

export interface SeedAccount {
  email: string;
  password: string;
  role: Role;
}

/** Creates the accounts that do not exist yet (confirmed, with these passwords); existing ones keep their password. */
export async function seedAccounts(ds: Db, accounts: SeedAccount[], log: (line: string) => void = () => undefined) {
  for (const account of accounts) {
    const email = account.email.toLowerCase();
    const [created] = await ds.query(
      `INSERT INTO identity.users (email, encrypted_password, app_role, email_confirmed_at)
       VALUES ($1, $2, $3, now()) ON CONFLICT (email) DO NOTHING RETURNING id`,
      [email, await hashPassword(account.password), account.role],
    );
    if (account.role === 'admin') await ds.query(`UPDATE identity.users SET app_role = 'admin' WHERE email = $1`, [email]);
    log(created ? `created ${account.role} ${email}` : `${email} already exists`);
  }
}

/** An account's role as `grantRole` left it. */
export interface RoleGrant {
  userId: string;
  from: Role;
  to: Role;
  /** True when the account lost rights, and with them every session (its tokens refused everywhere within seconds). */
  sessionsEnded: boolean;
}

/**
 * Gives an existing account `role` (app_metadata.role); null if there is no such account. A promotion takes effect at
 * the user's next token refresh. A demotion must not wait for the tokens out there to expire: it ends every session
 * of the user in the same transaction, through `sessions` (identity's own way, which tells every service through
 * Redis), and fails as a whole when that cannot be done.
 */
export async function grantRole(ds: DataSource, rawEmail: string, role: Role, sessions: () => SessionsRepository): Promise<RoleGrant | null> {
  return ds.transaction(async (tx) => {
    const [row] = (await tx.query(`SELECT id, app_role FROM identity.users WHERE email = $1 FOR UPDATE`, [rawEmail.trim().toLowerCase()])) as {
      id: string;
      app_role: Role;
    }[];
    if (!row) return null;
    const demoted = ROLES.indexOf(role) < ROLES.indexOf(row.app_role);
    if (row.app_role !== role) await tx.query(`UPDATE identity.users SET app_role = $2, updated_at = now() WHERE id = $1`, [row.id, role]);
    if (demoted) await sessions().deleteAllOfUser(row.id, tx);
    return { userId: row.id, from: row.app_role, to: role, sessionsEnded: demoted };
  });
}

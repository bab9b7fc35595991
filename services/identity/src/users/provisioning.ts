import type { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;
import type { Role } from '@beacon/auth';
import { hashPassword } from './password';

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

/** Gives an existing account the admin role (app_metadata.role). False if there is no such account. */
export async function grantAdmin(ds: Db, rawEmail: string): Promise<boolean> {
  const [rows] = await ds.query(`UPDATE identity.users SET app_role = 'admin', updated_at = now() WHERE email = $1 RETURNING id`, [
    rawEmail.trim().toLowerCase(),
  ]);
  return rows.length > 0;
}

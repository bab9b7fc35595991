import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { SessionRevocations } from '@beacon/auth';
import { closeRedis, createRedis } from '@beacon/common';
import { isRole, ROLE_LABELS, ROLES, type Role } from '@beacon/contracts';
import { MAX_JWT_EXPIRY_SECONDS, type IdentityEnv } from '../services/identity/src/config/env.dto';
import { SessionsRepository } from '../services/identity/src/sessions/sessions.repository';
import { grantRole } from '../services/identity/src/users/provisioning';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from './preflight';

const USAGE = `usage: npm run admin:grant -- <email> [role]   (role: ${ROLES.join(', ')}; default admin)`;

/** Where identity records ended sessions, as the services read them (REDIS_URL, REDIS_PREFIX). */
export interface RevocationRedis {
  url: string;
  prefix: string;
}

/**
 * `npm run admin:grant -- <email> [role]`: gives an existing account a role (issue #38: a staff role, or back to
 * 'user'), admin when none is named. A promotion takes effect in the user's next access token (at their next refresh
 * or sign-in); a demotion ends the user's sessions at once, on every service, as identity's admin API does, so it
 * needs Redis as well as the database.
 */
export async function main(
  argv: string[],
  url: string,
  out: (line: string) => void,
  err: (line: string) => void,
  redis: RevocationRedis = { url: DEFAULT_REDIS_URL, prefix: 'beacon' },
): Promise<number> {
  const [email, role = 'admin'] = argv;
  if (!email || argv.length > 2 || !email.includes('@')) {
    err(USAGE);
    return 2;
  }
  if (!isRole(role)) {
    err(`admin:grant: ${role} is not a role; the roles are ${ROLES.join(', ')}`);
    return 2;
  }
  const ds = new DataSource({ type: 'postgres', url });
  await ds.initialize();
  let client: ReturnType<typeof createRedis> | undefined;
  // Redis only for a demotion: a promotion works with the database alone.
  const sessions = () => {
    client = createRedis(redis.url, { keyPrefix: `${redis.prefix}:` });
    return new SessionsRepository(ds, new SessionRevocations(client), { IDENTITY_JWT_EXPIRY_SECONDS: MAX_JWT_EXPIRY_SECONDS } as IdentityEnv);
  };
  try {
    const grant = await grantRole(ds, email, role, sessions);
    if (!grant) {
      err(`admin:grant: no account with the email ${email}; the person must sign up first`);
      return 1;
    }
    out(`admin:grant: ${email} is now ${describe(grant.to)} (was ${describe(grant.from)}); ${effect(grant)}`);
    return 0;
  } finally {
    if (client) await closeRedis(client);
    await ds.destroy();
  }
}

const describe = (role: Role) => (role === 'user' ? 'a user' : `${/^[aeiou]/i.test(ROLE_LABELS[role]) ? 'an' : 'a'} ${ROLE_LABELS[role].toLowerCase()}`);

function effect(grant: { from: Role; to: Role; sessionsEnded: boolean }) {
  if (grant.sessionsEnded) return 'their sessions have ended everywhere: they sign in again with the new role';
  if (grant.from === grant.to) return 'nothing changed';
  return 'effective at their next sign-in or token refresh';
}

if (require.main === module) {
  main(
    process.argv.slice(2),
    process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    (l) => process.stdout.write(`${l}\n`),
    (l) => process.stderr.write(`${l}\n`),
    { url: process.env.REDIS_URL || DEFAULT_REDIS_URL, prefix: process.env.REDIS_PREFIX || 'beacon' },
  )
    .then((code) => process.exit(code))
    .catch((e) => {
      process.stderr.write(`admin:grant: ${(e as Error).message}\n`);
      process.exit(1);
    });
}

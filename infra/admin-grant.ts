import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { grantAdmin } from '../services/identity/src/users/provisioning';
import { DEFAULT_DATABASE_URL } from './preflight';

/**
 * `npm run admin:grant -- <email>`: gives an existing account the admin role. It takes effect in the user's
 * next access token (at their next refresh or sign-in).
 */
export async function main(argv: string[], url: string, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const email = argv[0];
  if (!email || argv.length !== 1 || !email.includes('@')) {
    err('usage: npm run admin:grant -- <email>');
    return 2;
  }
  const ds = new DataSource({ type: 'postgres', url });
  await ds.initialize();
  try {
    if (!(await grantAdmin(ds, email))) {
      err(`admin:grant: no account with the email ${email}; the person must sign up first`);
      return 1;
    }
    out(`admin:grant: ${email} is now an admin (effective at their next sign-in or token refresh)`);
    return 0;
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  main(
    process.argv.slice(2),
    process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    (l) => process.stdout.write(`${l}\n`),
    (l) => process.stderr.write(`${l}\n`),
  )
    .then((code) => process.exit(code))
    .catch((e) => {
      process.stderr.write(`admin:grant: ${(e as Error).message}\n`);
      process.exit(1);
    });
}

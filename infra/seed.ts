import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DEFAULT_DATABASE_URL } from './preflight';
import { DEMO_ADMIN, DEMO_USER } from './demo-accounts';
import { SEEDS } from './seeds';

export { DEMO_ADMIN, DEMO_USER };
const DEMO_EMAILS = [DEMO_USER.email, DEMO_ADMIN.email];

/**
 * Runs the idempotent demo seed. It refuses a database that already has real users (anyone other than
 * the demo accounts) unless SEED_FORCE=1: demo credentials must never appear in a live system by accident.
 */
export async function seedAll(url: string, options: { force?: boolean; publicUrl?: string; log?: (l: string) => void } = {}) {
  const log = options.log ?? (() => undefined);
  const ds = new DataSource({ type: 'postgres', url });
  await ds.initialize();
  try {
    const realUsers = await countRealUsers(ds);
    if (realUsers > 0 && !options.force) {
      log(`skipped: the database has ${realUsers} real user(s); set SEED_FORCE=1 to seed anyway`);
      return { skipped: true };
    }
    for (const seed of SEEDS) {
      await seed.run({ ds, log: (l) => log(`${seed.name}: ${l}`), publicUrl: options.publicUrl ?? 'http://localhost:8080' });
    }
    return { skipped: false };
  } finally {
    await ds.destroy();
  }
}

async function countRealUsers(ds: DataSource): Promise<number> {
  const exists = await ds.query(`SELECT to_regclass('identity.users') AS t`);
  if (!exists[0].t) return 0;
  const rows = await ds.query(`SELECT count(*)::int AS n FROM identity.users WHERE email <> ALL($1)`, [DEMO_EMAILS]);
  return rows[0].n;
}

if (require.main === module) {
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  seedAll(url, { force: process.env.SEED_FORCE === '1', publicUrl: process.env.PUBLIC_URL, log: (l) => process.stdout.write(`seed: ${l}\n`) })
    .then(() => process.exit(0))
    .catch((e) => {
      process.stderr.write(`seed: ${(e as Error).message}\n`);
      process.exit(1);
    });
}

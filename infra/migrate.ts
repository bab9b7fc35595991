import 'reflect-metadata';
import { Client } from 'pg';
import { migrateUp } from '@beacon/common';
import { DATABASES } from './databases';
import { directDatabaseUrl, ensureDatabase } from './preflight';

/**
 * The PostgreSQL advisory lock every migrator takes first (a session lock, so it is released when the process dies).
 * In Kubernetes every pod that uses the database runs this script as its `migrate` initContainer, so several may start
 * at once on an upgrade: one applies the pending migrations, the others wait, then find nothing pending. TypeORM's
 * runMigrations takes no lock of its own.
 */
export const MIGRATION_LOCK_KEY = 0x62656163; // 'beac'

/**
 * Runs every service's pending migrations, each in its own schema with its own migrations table, under the lock. `url`
 * must reach PostgreSQL itself, not a pooler in transaction mode (see directDatabaseUrl).
 */
export async function migrateAll(url: string, log: (line: string) => void = () => undefined) {
  const lock = new Client({ connectionString: url, application_name: 'beacon-migrate-lock' });
  await lock.connect();
  try {
    const { rows } = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [MIGRATION_LOCK_KEY]);
    if (!rows[0].ok) {
      log('waiting for the migration lock (another migrator is running)');
      await lock.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    }
    for (const db of DATABASES) {
      const ran = await migrateUp(url, db);
      log(ran.length ? `${db.schema}: applied ${ran.join(', ')}` : `${db.schema}: up to date`);
    }
  } finally {
    // ending the session releases the lock, also when a migration failed
    await lock.end();
  }
}

if (require.main === module) {
  const url = directDatabaseUrl();
  ensureDatabase(url)
    .then(() => migrateAll(url, (l) => process.stdout.write(`migrate: ${l}\n`)))
    .then(() => process.exit(0))
    .catch((e) => {
      process.stderr.write(`migrate: ${(e as Error).message}\n`);
      process.exit(1);
    });
}

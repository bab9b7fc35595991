import 'reflect-metadata';
import { migrateUp } from '@beacon/common';
import { DATABASES } from './databases';
import { DEFAULT_DATABASE_URL, ensureDatabase } from './preflight';

/** Runs every service's pending migrations, each in its own schema with its own migrations table. */
export async function migrateAll(url: string, log: (line: string) => void = () => undefined) {
  for (const db of DATABASES) {
    const ran = await migrateUp(url, db);
    log(ran.length ? `${db.schema}: applied ${ran.join(', ')}` : `${db.schema}: up to date`);
  }
}

if (require.main === module) {
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  ensureDatabase(url)
    .then(() => migrateAll(url, (l) => process.stdout.write(`migrate: ${l}\n`)))
    .then(() => process.exit(0))
    .catch((e) => {
      process.stderr.write(`migrate: ${(e as Error).message}\n`);
      process.exit(1);
    });
}

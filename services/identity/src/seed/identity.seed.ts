import type { DataSource } from 'typeorm';
import { seedAccounts } from '../users/provisioning';

interface Credentials {
  email: string;
  password: string;
}

/**
 * The demo user and demo admin, confirmed. Idempotent: existing accounts are left as they are (infra/seed.ts
 * refuses databases that have real users, so this never runs against a live system by accident).
 */
export async function seedIdentity(ds: DataSource, log: (line: string) => void, user: Credentials, admin: Credentials): Promise<void> {
  await ds.transaction(async (m) => {
    // serialise concurrent starts: only one seeds
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('identity.seed'))`);
    await seedAccounts(
      m,
      [
        { ...user, role: 'user' },
        { ...admin, role: 'admin' },
      ],
      log,
    );
  });
}

import { Client } from 'pg';
import Redis from 'ioredis';
import { TEST_ADMIN_URL, TEST_REDIS_URL } from './urls';

/** Integration specs need the real PostgreSQL and Redis: fail fast with a clear message if either is down. */
export default async function globalSetup() {
  const pg = new Client({ connectionString: TEST_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await pg.connect();
    await pg.end();
  } catch (e) {
    throw new Error(`Integration tests need PostgreSQL at ${TEST_ADMIN_URL}: ${(e as Error).message}. See README, "Quick start".`);
  }
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    throw new Error(`Integration tests need Redis at ${TEST_REDIS_URL}: ${(e as Error).message}. See README, "Quick start".`);
  } finally {
    redis.disconnect();
  }
}

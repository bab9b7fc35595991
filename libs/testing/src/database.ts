import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { migrateUp, ServiceDatabase } from '@beacon/common';
import { TEST_ADMIN_URL } from './urls';

export interface TestDatabase {
  url: string;
  name: string;
  /** A plain connection for assertions and fixtures. */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/**
 * A throwaway database per test file: parallel runs never collide, and nothing is left behind.
 * Pass the schemas to migrate (the service's own database definition, and any it reads events from).
 */
export async function createTestDatabase(databases: ServiceDatabase[] = []): Promise<TestDatabase> {
  const name = `beacon_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  try {
    for (const db of databases) await migrateUp(dbUrl, db);
  } catch (e) {
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw e;
  }
  const ds = new DataSource({ type: 'postgres', url: dbUrl, extra: { max: 3 } });
  await ds.initialize();
  return {
    url: dbUrl,
    name,
    query: (sql, params) => ds.query(sql, params),
    drop: async () => {
      await ds.destroy();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

async function adminQuery(sql: string) {
  const client = new Client({ connectionString: TEST_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

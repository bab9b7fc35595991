import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';

export interface ServiceDatabase {
  /** The PostgreSQL schema the service owns; no other service reads or writes it. */
  schema: string;
  entities: DataSourceOptions['entities'];
  migrations: (new () => MigrationInterface)[];
}

/** TypeORM options for one service: its own schema and its own migrations table, never synchronize. */
export function dataSourceOptions(url: string, db: ServiceDatabase, overrides: Partial<DataSourceOptions> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    schema: db.schema,
    entities: db.entities,
    migrations: db.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // pg pool: reconnects by itself after the database comes back, so /ready recovers without a restart
    extra: { max: 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30000, application_name: `beacon-${db.schema}` },
    ...overrides,
  } as DataSourceOptions;
}

/** Creates the schema (the migrations table lives in it) and runs pending migrations. */
export async function migrateUp(url: string, db: ServiceDatabase): Promise<string[]> {
  await ensureSchema(url, db.schema);
  const ds = new DataSource(dataSourceOptions(url, db, { entities: [] }));
  await ds.initialize();
  try {
    const ran = await ds.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/** Reverts the last `steps` migrations of one service. */
export async function migrateDown(url: string, db: ServiceDatabase, steps = 1): Promise<void> {
  const ds = new DataSource(dataSourceOptions(url, db, { entities: [] }));
  await ds.initialize();
  try {
    for (let i = 0; i < steps; i++) await ds.undoLastMigration({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}

export async function ensureSchema(url: string, schema: string) {
  const ds = new DataSource({ type: 'postgres', url });
  await ds.initialize();
  try {
    await ds.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await ds.destroy();
  }
}

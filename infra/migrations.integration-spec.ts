import { migrateDown, migrateUp } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { DATABASES } from './databases';

const tables = (db: TestDatabase, schema: string) =>
  db
    .query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'migrations' ORDER BY 1`, [
      schema,
    ])
    .then((r) => r.map((x) => x.table_name));

describe.each(DATABASES.map((d) => [d.schema, d] as const))('%s migrations', (schema, database) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('has at least one migration, with a down', () => {
    expect(database.migrations.length).toBeGreaterThan(0);
  });

  it('goes from a fresh database to the latest, down one step and up again', async () => {
    const applied = await migrateUp(db.url, database);
    expect(applied).toHaveLength(database.migrations.length);
    const latest = await tables(db, schema);
    expect(latest.length).toBeGreaterThan(0);
    expect(await migrateUp(db.url, database)).toEqual([]); // idempotent

    await migrateDown(db.url, database, 1);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM "${schema}".migrations`);
    expect(n).toBe(database.migrations.length - 1);

    expect(await migrateUp(db.url, database)).toHaveLength(1);
    expect(await tables(db, schema)).toEqual(latest);
  });

  it('goes all the way down, every down() in turn, and back up', async () => {
    await migrateUp(db.url, database);
    const latest = await tables(db, schema);
    await migrateDown(db.url, database, database.migrations.length);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM "${schema}".migrations`);
    expect(n).toBe(0);
    expect(await migrateUp(db.url, database)).toHaveLength(database.migrations.length);
    expect(await tables(db, schema)).toEqual(latest);
  });
});

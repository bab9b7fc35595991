import { migrateDown, migrateUp } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { incidentsDatabase } from '../database';

const columns = async (db: TestDatabase) =>
  await db.query<{ column_name: string; is_nullable: string }>(
    `SELECT column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'incidents' AND table_name = 'incidents' AND column_name = 'reporter_email'`,
  );

describe('ReporterEmail migration', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([incidentsDatabase]);
  });
  afterAll(() => db.drop());

  it('adds a nullable reporter_email that old rows leave empty, and its down removes it', async () => {
    expect(incidentsDatabase.migrations.at(-1)).toHaveProperty('name', 'ReporterEmail1763800400000');
    expect(await columns(db)).toEqual([{ column_name: 'reporter_email', is_nullable: 'YES' }]);

    await migrateDown(db.url, incidentsDatabase, 1);
    expect(await columns(db)).toEqual([]);
    // a report made before the column exists
    const [old] = await db.query(
      `INSERT INTO incidents.incidents (type, description, lat, lng, reported_by) VALUES ('other', 'Reported before the upgrade', 33, -112, gen_random_uuid()) RETURNING id`,
    );

    expect(await migrateUp(db.url, incidentsDatabase)).toEqual(['ReporterEmail1763800400000']);
    const [row] = await db.query(`SELECT reporter_email FROM incidents.incidents WHERE id = $1`, [old.id]);
    expect(row).toEqual({ reporter_email: null });
  });
});

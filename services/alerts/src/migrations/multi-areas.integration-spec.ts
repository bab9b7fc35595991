import { migrateDown, migrateUp } from '@beacon/common';
import { greatCircleKm } from '@beacon/geo';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { storedAreaColumns, toAlertArea } from '../alerts/alert-area';

/**
 * MultiAreas on real PostgreSQL: an alert keeps one shape (several parts, or one as before), alerts.area_parts_have
 * tests a home against the parts as the user feed reads them, and the down migration leaves no alert of several parts
 * for everyone: each gets the circle around its centre that holds every part.
 */
describe('MultiAreas migration', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const FIJI: [number, number][] = [
    [-16, 179],
    [-19, 179],
    [-17.5, -178.5],
  ];
  const area = storedAreaColumns(
    toAlertArea({
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: FIJI, description: 'Fiji' },
          { type: 'circle', lat: -21.1, lng: -175.2, radiusKm: 30, description: 'Tonga' },
        ],
      },
    }),
  );

  const insert = (columns: Record<string, unknown>) => {
    const names = Object.keys(columns);
    return db.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, ${names.join(', ')})
       VALUES ('Cyclone', 'Shelter now.', 'weather', 'critical', 'weather', '{push}', 'active', ${names.map((n, i) => `$${i + 1}${n === 'area_parts' ? '::jsonb' : n === 'area_polygon' ? '::polygon' : ''}`).join(', ')})
       RETURNING id`,
      Object.values(columns),
    );
  };

  it('keeps one shape: parts with a radius, a polygon, one part, or no centre are refused, as is a description beside parts', async () => {
    const multi = { lat: area.lat, lng: area.lng, area_parts: area.area_parts };
    expect(await insert(multi)).toHaveLength(1);
    await expect(insert({ ...multi, radius_km: 10 })).rejects.toThrow(/check constraint/);
    await expect(insert({ ...multi, area_polygon: '((0,0),(1,0),(0,1))' })).rejects.toThrow(/alerts_multi_area_shape/);
    await expect(insert({ ...multi, area_parts: JSON.stringify([JSON.parse(area.area_parts!)[0]]) })).rejects.toThrow(/alerts_multi_area_shape/);
    await expect(insert({ ...multi, lat: null, lng: null })).rejects.toThrow(/alerts_multi_area_shape/);
    await expect(insert({ ...multi, area_description: 'Pacific' })).rejects.toThrow(/alerts_area_description_one_part/);
    expect(await insert({ lat: 1, lng: 2, radius_km: 5, area_description: 'Downtown' })).toHaveLength(1);
  });

  it('tests a home against the parts: a polygon across the antimeridian on both sides, a circle within the smaller radius', async () => {
    const has = async (lat: number, lng: number, radius: number | null) =>
      (await db.query(`SELECT alerts.area_parts_have($1::jsonb, $2, $3, $4) AS has`, [area.area_parts, lat, lng, radius]))[0].has;
    expect(await has(-17.5, 179.5, 5)).toBe(true);
    expect(await has(-17.5, -179.5, 5)).toBe(true);
    expect(await has(-17.5, 178.5, 500)).toBe(false);
    expect(await has(-21.2, -175.2, null)).toBe(true);
    expect(await has(-21.2, -175.2, 5)).toBe(false); // 11 km away, their own radius 5 km
    expect(await has(-22, -175.2, null)).toBe(false);
  });

  it('down: an alert of several parts becomes the circle that holds them all, never an alert for everyone; up again', async () => {
    const [{ id }] = await insert({ lat: area.lat, lng: area.lng, area_parts: area.area_parts });
    const multi = alertsDatabase.migrations.findIndex((m) => new m().name === 'MultiAreas1764790000000');
    await migrateDown(db.url, alertsDatabase, alertsDatabase.migrations.length - multi);
    const [row] = await db.query(`SELECT lat, lng, radius_km FROM alerts.alerts WHERE id = $1`, [id]);
    const centre = { lat: row.lat, lng: row.lng };
    const farthest = Math.max(...FIJI.map(([lat, lng]) => greatCircleKm(centre, { lat, lng })), greatCircleKm(centre, { lat: -21.1, lng: -175.2 }) + 30);
    expect(row.radius_km).toBeCloseTo(farthest, 6);
    expect((await migrateUp(db.url, alertsDatabase))[0]).toBe('MultiAreas1764790000000');
  });
});

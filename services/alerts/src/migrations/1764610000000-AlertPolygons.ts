import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drawn alert areas (issue #19). A polygon alert keeps its ring in `area_polygon`, PostgreSQL's built-in polygon
 * type with x = longitude and y = latitude, corners open (the type closes the ring), longitudes continuous (a
 * polygon across the antimeridian has its western corners moved east by 360, libs/contracts unwrapRing), so
 * eligibility tests a home with alerts.polygon_has below. Its `lat`/`lng` are the polygon's centroid (map
 * centring, sorting by distance) and `radius_km` is NULL: radius_km is a circle's, and an alert has one shape. Circle
 * alerts are unchanged (area_polygon NULL).
 *
 * alerts.polygon_has(poly, x, y) is the exact test eligibility uses, the even-odd rule of libs/geo insidePolygon.
 * PostgreSQL's `@>` treats as on the boundary whatever its cross products put within 1e-6 of zero, which for a
 * small polygon in degrees is metres away (a spec caught it 15 m out). So it is asked in micro-degrees (the ring
 * scaled by 1e6, folded once when the polygon is a bound parameter), where that tolerance, like the rounding of
 * the arithmetic, is under 1e-12 degrees (a micrometre). The bounding box goes first. (A per-row distance to the
 * edges, to hand the nearest points to an exact PL/pgSQL loop, cost 17 us a row at 200 corners: not kept.)
 */
export class AlertPolygons1764610000000 implements MigrationInterface {
  name = 'AlertPolygons1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN area_polygon polygon,
      ADD CONSTRAINT alerts_one_area_shape CHECK (area_polygon IS NULL OR (radius_km IS NULL AND lat IS NOT NULL AND lng IS NOT NULL))`);
    await q.query(`
      CREATE FUNCTION alerts.polygon_has(poly polygon, x double precision, y double precision)
      RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT box(poly) @> point(x, y) AND polygon(path(poly) * point(1e6, 0)) @> point(x * 1e6, y * 1e6)
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION alerts.polygon_has(polygon, double precision, double precision)`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_one_area_shape, DROP COLUMN area_polygon`);
  }
}

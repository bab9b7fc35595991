import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drawn alert areas (issue #19). A polygon alert keeps its ring in `area_polygon`, PostgreSQL's built-in polygon
 * type with x = longitude and y = latitude, corners open (the type closes the ring), longitudes continuous (a
 * polygon across the antimeridian has its western corners moved east by 360, libs/contracts unwrapRing), so
 * eligibility's exact test is `area_polygon @> point(lng, lat)`. Its `lat`/`lng` are the polygon's centroid (map
 * centring, sorting by distance) and `radius_km` is NULL: radius_km is a circle's, and an alert has one shape. Circle
 * alerts are unchanged (area_polygon NULL).
 *
 * alerts.polygon_has(poly, x, y) is the exact test eligibility uses: the even-odd rule of libs/geo insidePolygon.
 * PostgreSQL's `@>` treats as on the boundary whatever its cross products put within 1e-6 of zero, which for a
 * small polygon in degrees is metres away (a spec caught it 15 m out). So it is asked in micro-degrees (the ring
 * scaled by 1e6, folded once when the polygon is a bound parameter), where that tolerance is far below a
 * millimetre, and only for points farther than 1e-5 degrees (about a metre) from the boundary; the few nearer ones
 * get the exact rule, term by term as libs/geo computes it (polygon_has_exact). The bounding box goes first.
 */
export class AlertPolygons1764610000000 implements MigrationInterface {
  name = 'AlertPolygons1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN area_polygon polygon,
      ADD CONSTRAINT alerts_one_area_shape CHECK (area_polygon IS NULL OR (radius_km IS NULL AND lat IS NOT NULL AND lng IS NOT NULL))`);
    await q.query(`
      CREATE FUNCTION alerts.polygon_has_exact(poly polygon, x double precision, y double precision)
      RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
      DECLARE
        v double precision[] := string_to_array(translate(poly::text, '()', ''), ',')::double precision[];
        n integer := array_length(v, 1) / 2;
        inside boolean := false;
        j integer := n;
        xi double precision; yi double precision; xj double precision; yj double precision;
      BEGIN
        FOR i IN 1..n LOOP
          xi := v[2 * i - 1]; yi := v[2 * i]; xj := v[2 * j - 1]; yj := v[2 * j];
          IF (yi > y) <> (yj > y) AND x < (xj - xi) * (y - yi) / (yj - yi) + xi THEN
            inside := NOT inside;
          END IF;
          j := i;
        END LOOP;
        RETURN inside;
      END $$`);
    await q.query(`
      CREATE FUNCTION alerts.polygon_has(poly polygon, x double precision, y double precision)
      RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT box(poly) @> point(x, y) AND CASE WHEN point(x, y) <-> path(poly) > 1e-5
                                                 THEN polygon(path(poly) * point(1e6, 0)) @> point(x * 1e6, y * 1e6)
                                                 ELSE alerts.polygon_has_exact(poly, x, y) END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION alerts.polygon_has(polygon, double precision, double precision)`);
    await q.query(`DROP FUNCTION alerts.polygon_has_exact(polygon, double precision, double precision)`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_one_area_shape, DROP COLUMN area_polygon`);
  }
}

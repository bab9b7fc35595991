import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drawn alert areas (issue #19). A polygon alert keeps its ring in `area_polygon`, PostgreSQL's built-in polygon
 * type with x = longitude and y = latitude, corners open (the type closes the ring), longitudes continuous (a
 * polygon across the antimeridian has its western corners moved east by 360, libs/contracts unwrapRing), so
 * eligibility's exact test is `area_polygon @> point(lng, lat)`. Its `lat`/`lng` are the polygon's centroid (map
 * centring, sorting by distance) and `radius_km` is NULL: radius_km is a circle's, and an alert has one shape. Circle
 * alerts are unchanged (area_polygon NULL).
 */
export class AlertPolygons1764610000000 implements MigrationInterface {
  name = 'AlertPolygons1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN area_polygon polygon,
      ADD CONSTRAINT alerts_one_area_shape CHECK (area_polygon IS NULL OR (radius_km IS NULL AND lat IS NOT NULL AND lng IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_one_area_shape, DROP COLUMN area_polygon`);
  }
}

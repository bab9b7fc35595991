import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Areas of several parts (issue #42), as warning authorities draw them: CAP's several `<area>` blocks, each a circle
 * or a polygon with its own `<areaDesc>`.
 *
 * - `area_parts`: the parts of an area of two or more, as drawn: a jsonb array of `{type: 'circle', lat, lng, radiusKm}`
 *   and `{type: 'polygon', points: [[lat, lng], ...]}` (the ring open, longitudes continuous as area_polygon keeps
 *   them), each with an optional `description`. Its `lat`/`lng` are a centre (map centring, sorting by distance),
 *   `radius_km` and `area_polygon` NULL: one shape per alert, as alerts_one_area_shape says for a polygon. An area of
 *   one part is stored as before (no data moves), and a version's snapshot (to_jsonb of the row) keeps the parts too.
 * - `area_description`: a one-part area's description (a part of several keeps its own in area_parts). No length
 *   limit here: the API's 200 characters (libs/contracts areaProblem) counts as JavaScript does, and a limit here
 *   would count otherwise and answer 500 where the API meant 400.
 *
 * alerts.area_parts_have(parts, lat, lng, radius) is the exact test of a home against the parts, for whoever reads an
 * alert row per person (the user feed): in any polygon (alerts.polygon_has, the +360 try for a polygon across the
 * antimeridian) or within the smaller radius of any circle. The dispatch and the audience preview bind each part
 * instead and read the strip index (services/alerts/src/deliveries/eligibility.sql.ts), where the polygons' scaling
 * is folded once per statement.
 *
 * Down: an alert of several parts gets the circle around its centre that holds them all (what CAP ingest used to
 * make of them), so that none becomes an alert for everyone.
 */
export class MultiAreas1764790000000 implements MigrationInterface {
  name = 'MultiAreas1764790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN area_parts jsonb, ADD COLUMN area_description text,
      ADD CONSTRAINT alerts_multi_area_shape CHECK (area_parts IS NULL OR (jsonb_typeof(area_parts) = 'array'
        AND jsonb_array_length(area_parts) >= 2 AND radius_km IS NULL AND area_polygon IS NULL AND lat IS NOT NULL AND lng IS NOT NULL)),
      ADD CONSTRAINT alerts_area_description_one_part CHECK (area_description IS NULL OR (area_parts IS NULL AND lat IS NOT NULL))`);
    await q.query(`
      CREATE FUNCTION alerts.area_part_polygon(part jsonb)
      RETURNS polygon LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT ('(' || string_agg('(' || (pt->>1) || ',' || (pt->>0) || ')', ',' ORDER BY i) || ')')::polygon
        FROM jsonb_array_elements(part->'points') WITH ORDINALITY AS t(pt, i)
      $$`);
    await q.query(`
      CREATE FUNCTION alerts.area_parts_have(parts jsonb, lat double precision, lng double precision, user_radius double precision)
      RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT EXISTS (
          SELECT 1 FROM jsonb_array_elements(parts) AS t(part)
          WHERE CASE WHEN part->>'type' = 'polygon'
                  THEN alerts.polygon_has(alerts.area_part_polygon(part), $3, $2) OR alerts.polygon_has(alerts.area_part_polygon(part), $3 + 360, $2)
                ELSE alerts.great_circle_km((part->>'lat')::float8, (part->>'lng')::float8, $2, $3) <= least((part->>'radiusKm')::float8, $4) END)
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_area_description_one_part, DROP CONSTRAINT alerts_multi_area_shape`);
    await q.query(`
      UPDATE alerts.alerts a SET radius_km = greatest(1, (
        SELECT max(CASE WHEN t.part->>'type' = 'polygon'
                     THEN (SELECT max(alerts.great_circle_km(a.lat, a.lng, (pt->>0)::float8, (pt->>1)::float8)) FROM jsonb_array_elements(t.part->'points') pt)
                   ELSE alerts.great_circle_km(a.lat, a.lng, (t.part->>'lat')::float8, (t.part->>'lng')::float8) + (t.part->>'radiusKm')::float8 END)
        FROM jsonb_array_elements(a.area_parts) AS t(part)))
      WHERE a.area_parts IS NOT NULL`);
    await q.query(`DROP FUNCTION alerts.area_parts_have(jsonb, double precision, double precision, double precision)`);
    await q.query(`DROP FUNCTION alerts.area_part_polygon(jsonb)`);
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN area_description, DROP COLUMN area_parts`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cameras and traffic events as the spec describes them, plus where each came from: rows are keyed by
 * (source, source_id) so a pull from the 511 source upserts, and a row the source stops reporting is
 * marked vanished (vanished_at) rather than deleted.
 */
export class CreateTraffic1763790000000 implements MigrationInterface {
  name = 'CreateTraffic1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE traffic.cameras (
        camera_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source text NOT NULL,
        source_id text NOT NULL,
        source_name text,
        roadway text NOT NULL,
        direction text,
        description text,
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        image_url text,
        views jsonb NOT NULL DEFAULT '[]'::jsonb,
        -- when the source last confirmed the camera (and so its feed); shown as 'Updated'
        last_updated timestamptz,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        vanished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT cameras_source_key UNIQUE (source, source_id),
        CONSTRAINT cameras_coordinates_together CHECK ((lat IS NULL) = (lng IS NULL))
      )`);
    await q.query(`CREATE INDEX cameras_active_roadway_idx ON traffic.cameras (roadway, camera_id) WHERE vanished_at IS NULL`);
    await q.query(`
      CREATE TABLE traffic.traffic_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source text NOT NULL,
        source_id text NOT NULL,
        source_name text,
        type text NOT NULL DEFAULT 'Traffic Incident',
        category text NOT NULL DEFAULT 'incident'
          CHECK (category IN ('incident', 'closure', 'roadwork', 'special_event', 'weather', 'other')),
        severity text NOT NULL DEFAULT 'medium' CHECK (severity IN ('high', 'medium', 'low')),
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        description text NOT NULL DEFAULT 'Traffic incident reported',
        roadway text,
        direction text,
        full_closure boolean NOT NULL DEFAULT false,
        start_date timestamptz,
        end_date timestamptz,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        vanished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT traffic_events_source_key UNIQUE (source, source_id),
        CONSTRAINT traffic_events_coordinates_together CHECK ((lat IS NULL) = (lng IS NULL))
      )`);
    await q.query(`CREATE INDEX traffic_events_current_idx ON traffic.traffic_events (end_date) WHERE vanished_at IS NULL AND lat IS NOT NULL`);
    // One row per pull: what the operator looks at when the map goes quiet.
    await q.query(`
      CREATE TABLE traffic.ingest_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source text NOT NULL,
        reason text NOT NULL,
        status text NOT NULL CHECK (status IN ('ok', 'partial', 'failed', 'rate_limited')),
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL DEFAULT now(),
        report jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX ingest_runs_recent_idx ON traffic.ingest_runs (started_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE traffic.ingest_runs`);
    await q.query(`DROP TABLE traffic.traffic_events`);
    await q.query(`DROP TABLE traffic.cameras`);
  }
}

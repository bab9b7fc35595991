import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIncidents1763800000000 implements MigrationInterface {
  name = 'CreateIncidents1763800000000';

  async up(q: QueryRunner): Promise<void> {
    // Shared with the alerts schema; IF NOT EXISTS because whichever service migrates first creates them.
    await q.query(`CREATE EXTENSION IF NOT EXISTS cube WITH SCHEMA public`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS earthdistance WITH SCHEMA public`);
    // earthdistance's ll_to_earth() calls earth() and cube() unqualified, so it breaks wherever search_path
    // lacks public (restores, maintenance). This wrapper pins the path; every radius query and every geo
    // index in this schema goes through it, so the indexes are used.
    await q.query(`
      CREATE FUNCTION incidents.geo_point(lat double precision, lng double precision) RETURNS public.earth
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = public, pg_temp
      AS $$ SELECT public.ll_to_earth(lat, lng) $$`);
    await q.query(`
      CREATE TABLE incidents.incidents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        type text NOT NULL CHECK (type IN ('traffic-hazard', 'crime', 'accident', 'wrong-way-driver', 'other')),
        description text NOT NULL CHECK (char_length(description) BETWEEN 10 AND 500),
        location_name text CHECK (char_length(location_name) <= 200),
        lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
        lng double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
        photo_path text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'rejected', 'resolved')),
        reported_by uuid NOT NULL,
        auto_approved boolean NOT NULL DEFAULT false,
        moderated_by uuid,
        moderated_at timestamptz,
        moderation_note text CHECK (char_length(moderation_note) <= 500),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX incidents_geo_idx ON incidents.incidents USING gist (incidents.geo_point(lat, lng))`);
    await q.query(`CREATE INDEX incidents_status_created_idx ON incidents.incidents (status, created_at DESC)`);
    await q.query(`CREATE INDEX incidents_reporter_created_idx ON incidents.incidents (reported_by, created_at DESC)`);
    // the duplicate check: same type, recent, open
    await q.query(`CREATE INDEX incidents_open_type_created_idx ON incidents.incidents (type, created_at DESC) WHERE status IN ('pending', 'verified')`);
    // Transactional outbox: events are written with the rows that cause them and relayed to BullMQ after
    // commit (and by a periodic sweep), so a Redis outage delays events instead of losing them.
    await q.query(`
      CREATE TABLE incidents.outbox (
        id bigserial PRIMARY KEY,
        job_name text NOT NULL,
        job_id text,
        payload jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE incidents.outbox`);
    await q.query(`DROP TABLE incidents.incidents`);
    await q.query(`DROP FUNCTION incidents.geo_point(double precision, double precision)`);
    // the extensions stay: other schemas use them
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The alerts schema: one alert model, deliveries (one per alert, user and channel), preferences with a
 * GiST-indexed home location, push subscriptions, admin settings, server-side keys, help requests, and a
 * per-alert per-channel delivery summary that statement-level triggers keep in step with the deliveries.
 */
export class CreateAlerts1763800000000 implements MigrationInterface {
  name = 'CreateAlerts1763800000000';

  async up(q: QueryRunner): Promise<void> {
    // Extensions are database-wide and may be shared with other schemas: created if missing, never dropped.
    await q.query(`CREATE EXTENSION IF NOT EXISTS cube`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS earthdistance`);

    await q.query(`
      CREATE TABLE alerts.alerts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title text NOT NULL CHECK (length(title) BETWEEN 1 AND 100),
        message text NOT NULL CHECK (length(message) BETWEEN 1 AND 500),
        type text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('low','medium','high','critical')),
        category text NOT NULL CHECK (category IN ('weather','traffic','security','public_safety','health')),
        location_name text,
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        radius_km double precision CHECK (radius_km > 0),
        expires_at timestamptz,
        channels text[] NOT NULL CHECK (channels <@ ARRAY['push','sms','email']::text[]),
        status text NOT NULL CHECK (status IN ('draft','active','expired','cancelled')),
        source text NOT NULL DEFAULT 'admin' CHECK (source IN ('admin','incident','test')),
        source_ref text,
        created_by uuid,
        idempotency_key text,
        recipients integer,
        dispatched_at timestamptz,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((lat IS NULL) = (lng IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX alerts_idempotency_uq ON alerts.alerts (created_by, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX alerts_source_ref_uq ON alerts.alerts (source, source_ref) WHERE source_ref IS NOT NULL`);
    await q.query(`CREATE INDEX alerts_created_idx ON alerts.alerts (created_at DESC)`);
    await q.query(`CREATE INDEX alerts_active_idx ON alerts.alerts (expires_at) WHERE status = 'active'`);

    await q.query(`
      CREATE TABLE alerts.alert_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        channel text NOT NULL CHECK (channel IN ('push','sms','email')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sending','sent','delivered','failed','read','cancelled')),
        not_before timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        provider_message_id text,
        sent_at timestamptz,
        delivered_at timestamptz,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (alert_id, user_id, channel)
      )`);
    await q.query(`CREATE INDEX alert_deliveries_user_idx ON alerts.alert_deliveries (user_id, created_at DESC)`);
    await q.query(`CREATE INDEX alert_deliveries_day_idx ON alerts.alert_deliveries (created_at)`);

    // The roll-up: (alert, channel, status) -> count, maintained per statement from transition tables, so a
    // batch update of 500 rows costs one upsert per distinct status, not 500 counter updates.
    await q.query(`
      CREATE TABLE alerts.alert_delivery_counts (
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        channel text NOT NULL,
        status text NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (alert_id, channel, status)
      )`);
    await q.query(`
      CREATE FUNCTION alerts.apply_delivery_count_delta() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO alerts.alert_delivery_counts AS c (alert_id, channel, status, n)
          SELECT alert_id, channel, status, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (alert_id, channel, status) DO UPDATE SET n = c.n + excluded.n;
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO alerts.alert_delivery_counts AS c (alert_id, channel, status, n)
          SELECT alert_id, channel, status, sum(d)::int FROM (
            SELECT alert_id, channel, status, 1 AS d FROM new_rows
            UNION ALL
            SELECT alert_id, channel, status, -1 AS d FROM old_rows
          ) x GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
          ON CONFLICT (alert_id, channel, status) DO UPDATE SET n = c.n + excluded.n;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE alerts.alert_delivery_counts c SET n = c.n - o.k
          FROM (SELECT alert_id, channel, status, count(*)::int AS k FROM old_rows GROUP BY 1, 2, 3) o
          WHERE c.alert_id = o.alert_id AND c.channel = o.channel AND c.status = o.status;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER alert_deliveries_count_ins AFTER INSERT ON alerts.alert_deliveries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.apply_delivery_count_delta()`,
    );
    await q.query(
      `CREATE TRIGGER alert_deliveries_count_upd AFTER UPDATE ON alerts.alert_deliveries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.apply_delivery_count_delta()`,
    );
    await q.query(
      `CREATE TRIGGER alert_deliveries_count_del AFTER DELETE ON alerts.alert_deliveries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.apply_delivery_count_delta()`,
    );

    await q.query(`
      CREATE TABLE alerts.alert_reads (
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        read_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, alert_id)
      )`);

    await q.query(`
      CREATE TABLE alerts.user_preferences (
        user_id uuid PRIMARY KEY,
        email text,
        severity_threshold text NOT NULL DEFAULT 'low' CHECK (severity_threshold IN ('low','medium','high','critical')),
        alert_types text[] NOT NULL,
        categories text[] NOT NULL,
        push_enabled boolean NOT NULL DEFAULT true,
        sms_enabled boolean NOT NULL DEFAULT false,
        email_enabled boolean NOT NULL DEFAULT false,
        voice_enabled boolean NOT NULL DEFAULT true,
        phone_number text,
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        radius_km double precision NOT NULL CHECK (radius_km > 0),
        quiet_enabled boolean NOT NULL DEFAULT false,
        quiet_start time NOT NULL DEFAULT '22:00',
        quiet_end time NOT NULL DEFAULT '07:00',
        time_zone text NOT NULL DEFAULT 'America/Phoenix',
        weekend_enabled boolean NOT NULL DEFAULT false,
        frequency text NOT NULL DEFAULT 'immediate' CHECK (frequency IN ('immediate','hourly','daily','weekly')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((lat IS NULL) = (lng IS NULL))
      )`);
    // Radius queries: earth_box(...) @> ll_to_earth(lat, lng) uses this index.
    await q.query(`CREATE INDEX user_preferences_location_gist ON alerts.user_preferences USING gist (ll_to_earth(lat, lng)) WHERE lat IS NOT NULL`);
    await q.query(`CREATE INDEX user_preferences_no_location_idx ON alerts.user_preferences (user_id) WHERE lat IS NULL`);
    await q.query(`CREATE INDEX user_preferences_categories_gin ON alerts.user_preferences USING gin (categories)`);

    await q.query(`
      CREATE TABLE alerts.push_subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        endpoint text NOT NULL UNIQUE,
        p256dh text NOT NULL,
        auth text NOT NULL,
        user_agent text,
        last_success_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX push_subscriptions_user_idx ON alerts.push_subscriptions (user_id)`);

    await q.query(`
      CREATE TABLE alerts.admin_settings (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        push_enabled boolean NOT NULL DEFAULT true,
        push_username text,
        push_api_key text,
        webhook_enabled boolean NOT NULL DEFAULT true,
        webhook_url text,
        updated_by uuid,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Generated on first start, never leave the server (only the VAPID public key is published).
    await q.query(`
      CREATE TABLE alerts.server_keys (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        vapid_public_key text NOT NULL,
        vapid_private_key text NOT NULL,
        receipt_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE alerts.help_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        user_email text,
        message text NOT NULL DEFAULT '',
        lat double precision,
        lng double precision,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open','resolved')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX help_requests_created_idx ON alerts.help_requests (created_at DESC)`);

    // When a held (non-critical) delivery may go out for a user: the next digest slot of their frequency,
    // moved to the end of their quiet hours if it falls inside them. NULL means now. Critical: always now.
    await q.query(`
      CREATE FUNCTION alerts.quiet_release(t timestamptz, quiet_enabled boolean, quiet_start time, quiet_end time, tz text)
      RETURNS timestamptz LANGUAGE sql STABLE AS $$
        SELECT CASE
          WHEN NOT quiet_enabled OR quiet_start = quiet_end THEN t
          WHEN quiet_start < quiet_end AND (t AT TIME ZONE tz)::time >= quiet_start AND (t AT TIME ZONE tz)::time < quiet_end
            THEN ((t AT TIME ZONE tz)::date + quiet_end) AT TIME ZONE tz
          WHEN quiet_start > quiet_end AND (t AT TIME ZONE tz)::time >= quiet_start
            THEN ((t AT TIME ZONE tz)::date + 1 + quiet_end) AT TIME ZONE tz
          WHEN quiet_start > quiet_end AND (t AT TIME ZONE tz)::time < quiet_end
            THEN ((t AT TIME ZONE tz)::date + quiet_end) AT TIME ZONE tz
          ELSE t
        END
      $$`);
    await q.query(`
      CREATE FUNCTION alerts.hold_until(t timestamptz, critical boolean, frequency text, quiet_enabled boolean, quiet_start time, quiet_end time, tz text)
      RETURNS timestamptz LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN critical THEN NULL ELSE nullif(alerts.quiet_release(
          CASE frequency
            WHEN 'hourly' THEN date_trunc('hour', t AT TIME ZONE tz) + interval '1 hour'
            WHEN 'daily' THEN date_trunc('day', t AT TIME ZONE tz - interval '8 hours') + interval '1 day 8 hours'
            WHEN 'weekly' THEN date_trunc('week', t AT TIME ZONE tz - interval '8 hours') + interval '1 week 8 hours'
            ELSE t AT TIME ZONE tz
          END AT TIME ZONE tz, quiet_enabled, quiet_start, quiet_end, tz), t) END
      $$`);

    // Great-circle distance, R = 6371 km: the same haversine, term by term, as libs/geo greatCircleKm.
    await q.query(`
      CREATE FUNCTION alerts.great_circle_km(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
      RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT 2 * 6371 * asin(least(1, sqrt(
          power(sin(radians(lat2 - lat1) / 2), 2) + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2))))
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION alerts.great_circle_km(double precision, double precision, double precision, double precision)`);
    await q.query(`DROP FUNCTION alerts.hold_until(timestamptz, boolean, text, boolean, time, time, text)`);
    await q.query(`DROP FUNCTION alerts.quiet_release(timestamptz, boolean, time, time, text)`);
    await q.query(`DROP TABLE alerts.help_requests`);
    await q.query(`DROP TABLE alerts.server_keys`);
    await q.query(`DROP TABLE alerts.admin_settings`);
    await q.query(`DROP TABLE alerts.push_subscriptions`);
    await q.query(`DROP TABLE alerts.user_preferences`);
    await q.query(`DROP TABLE alerts.alert_reads`);
    await q.query(`DROP TABLE alerts.alert_delivery_counts`);
    await q.query(`DROP TABLE alerts.alert_deliveries`);
    await q.query(`DROP FUNCTION alerts.apply_delivery_count_delta()`);
    await q.query(`DROP TABLE alerts.alerts`);
  }
}

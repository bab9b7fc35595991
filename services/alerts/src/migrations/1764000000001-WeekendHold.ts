import { MigrationInterface, QueryRunner } from 'typeorm';

/** hold_until as 1763800000000-CreateAlerts defined it, for down(). */
const HOLD_UNTIL_BEFORE = `
  CREATE OR REPLACE FUNCTION alerts.hold_until(t timestamptz, critical boolean, frequency text, quiet_enabled boolean, quiet_start time, quiet_end time, tz text)
  RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN critical THEN NULL ELSE nullif(alerts.quiet_release(
      CASE frequency
        WHEN 'hourly' THEN date_trunc('hour', t AT TIME ZONE tz) + interval '1 hour'
        WHEN 'daily' THEN date_trunc('day', t AT TIME ZONE tz - interval '8 hours') + interval '1 day 8 hours'
        WHEN 'weekly' THEN date_trunc('week', t AT TIME ZONE tz - interval '8 hours') + interval '1 week 8 hours'
        ELSE t AT TIME ZONE tz
      END AT TIME ZONE tz, quiet_enabled, quiet_start, quiet_end, tz), t) END
  $$`;

/**
 * The preferences' weekend setting ("Weekend settings", off by default) becomes real: with it on, alerts
 * below critical that would reach the user on a Saturday or Sunday (their time zone) wait until Monday at
 * the end of their quiet hours (07:00 unless they changed it), and arrive then as one digest per channel.
 *
 * may_hold (the generated flag the covering eligibility indexes carry) is left as it is: changing a generated
 * expression rewrites the table and rebuilds all its indexes under an exclusive lock (seconds per 100,000
 * users, with dispatches waiting). Instead the dispatcher, while it is Saturday or Sunday somewhere, also
 * looks users up in this small partial index, built without blocking reads.
 */
export class WeekendHold1764000000001 implements MigrationInterface {
  name = 'WeekendHold1764000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX user_preferences_weekend_idx ON alerts.user_preferences (user_id) WHERE weekend_enabled`);
    await q.query(`
      CREATE FUNCTION alerts.weekend_release(t timestamptz, weekend_enabled boolean, monday_at time, tz text)
      RETURNS timestamptz LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN weekend_enabled AND extract(isodow FROM t AT TIME ZONE tz) IN (6, 7)
          THEN ((date_trunc('week', t AT TIME ZONE tz) + interval '1 week')::date + monday_at) AT TIME ZONE tz
          ELSE t END
      $$`);
    // The digest slot of the frequency, moved past the weekend when the user keeps weekends quiet, then past
    // their quiet hours. NULL means now. Critical alerts are never held.
    await q.query(`
      CREATE FUNCTION alerts.hold_until(t timestamptz, critical boolean, frequency text, quiet_enabled boolean, quiet_start time, quiet_end time, tz text, weekend_enabled boolean)
      RETURNS timestamptz LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN critical THEN NULL ELSE nullif(alerts.quiet_release(alerts.weekend_release(
          CASE frequency
            WHEN 'hourly' THEN date_trunc('hour', t AT TIME ZONE tz) + interval '1 hour'
            WHEN 'daily' THEN date_trunc('day', t AT TIME ZONE tz - interval '8 hours') + interval '1 day 8 hours'
            WHEN 'weekly' THEN date_trunc('week', t AT TIME ZONE tz - interval '8 hours') + interval '1 week 8 hours'
            ELSE t AT TIME ZONE tz
          END AT TIME ZONE tz, weekend_enabled, quiet_end, tz), quiet_enabled, quiet_start, quiet_end, tz), t) END
      $$`);
    // Workers of the previous release call the seven-argument form until they are replaced (rolling update).
    await q.query(`
      CREATE OR REPLACE FUNCTION alerts.hold_until(t timestamptz, critical boolean, frequency text, quiet_enabled boolean, quiet_start time, quiet_end time, tz text)
      RETURNS timestamptz LANGUAGE sql STABLE AS $$
        SELECT alerts.hold_until(t, critical, frequency, quiet_enabled, quiet_start, quiet_end, tz, false)
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION alerts.hold_until(timestamptz, boolean, text, boolean, time, time, text, boolean)`);
    await q.query(HOLD_UNTIL_BEFORE);
    await q.query(`DROP FUNCTION alerts.weekend_release(timestamptz, boolean, time, text)`);
    await q.query(`DROP INDEX alerts.user_preferences_weekend_idx`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Eligibility at a million subscribers in well under 200 ms (see bench/README.md for the plans).
 *
 * The GiST index on ll_to_earth finds the users in an alert's bounding cube, but the rows then come from the
 * heap: with homes in no particular physical order that is nearly every page of the table. Here the located
 * users are also indexed by 0.01-degree latitude strip and longitude, with every column eligibility and the
 * fan-out read INCLUDEd, so the dispatcher reads a circle as one short index-only range per strip.
 * Three generated columns keep the covering index small and exact: which channels a user can be reached on
 * (the push subscription itself is checked at fan-out), and whether quiet hours or digests may hold an alert.
 * Unlocated users get a covering index too.
 */
export class FastEligibility1763900000000 implements MigrationInterface {
  name = 'FastEligibility1763900000000';

  async up(q: QueryRunner): Promise<void> {
    // STRIPS_PER_DEGREE in services/alerts/src/deliveries/geo-strips.ts must match the 100 here.
    await q.query(`
      ALTER TABLE alerts.user_preferences
        ADD COLUMN geo_strip integer GENERATED ALWAYS AS (floor(lat * 100)::integer) STORED,
        ADD COLUMN channel_mask smallint GENERATED ALWAYS AS ((
          (CASE WHEN push_enabled THEN 1 ELSE 0 END)
          | (CASE WHEN sms_enabled AND phone_number IS NOT NULL THEN 2 ELSE 0 END)
          | (CASE WHEN email_enabled AND email IS NOT NULL THEN 4 ELSE 0 END))::smallint) STORED,
        ADD COLUMN may_hold boolean GENERATED ALWAYS AS (frequency <> 'immediate' OR quiet_enabled) STORED`);
    await q.query(`
      CREATE INDEX user_preferences_strip_idx ON alerts.user_preferences (geo_strip, lng)
        INCLUDE (lat, radius_km, severity_threshold, categories, user_id, channel_mask, may_hold) WHERE lat IS NOT NULL`);
    await q.query(`
      CREATE INDEX user_preferences_unlocated_idx ON alerts.user_preferences (user_id)
        INCLUDE (severity_threshold, categories, channel_mask, may_hold) WHERE lat IS NULL`);
    await q.query(`DROP INDEX alerts.user_preferences_no_location_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX user_preferences_no_location_idx ON alerts.user_preferences (user_id) WHERE lat IS NULL`);
    await q.query(`DROP INDEX alerts.user_preferences_unlocated_idx`);
    await q.query(`DROP INDEX alerts.user_preferences_strip_idx`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN may_hold, DROP COLUMN channel_mask, DROP COLUMN geo_strip`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #40: the warning reaches the person.
 *
 * - `user_preferences.home_name`: the home as a place the person recognises (an address or place found through the
 *   geocoder, or the name of the place their device reported), beside the point eligibility uses; null when they gave
 *   none (never ''). Its length is the API's to refuse (200 characters, HomeDto) with a 400: a limit here would count
 *   characters otherwise than the validator does, so a name it refused would answer 500.
 * - `alert_dismissals`: an ended alert (all-clear, expired, cancelled) the person put away; the feed leaves it out. A
 *   table of its own, not a column of alert_reads: a row there is the person's "I'm safe", counted as such on the
 *   console, and putting an ended alert away says nothing of their safety.
 *
 * The column is nullable without a default: added without rewriting or scanning the table.
 */
export class PlacesAndDismissals1764780000000 implements MigrationInterface {
  name = 'PlacesAndDismissals1764780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.user_preferences ADD COLUMN home_name text`);
    await q.query(`
      CREATE TABLE alerts.alert_dismissals (
        user_id uuid NOT NULL,
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        dismissed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, alert_id)
      )`);
    // ON DELETE CASCADE from alerts looks rows up by alert.
    await q.query(`CREATE INDEX alert_dismissals_alert_idx ON alerts.alert_dismissals (alert_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alerts.alert_dismissals`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN home_name`);
  }
}

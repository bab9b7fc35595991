import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What retiring a push endpoint that keeps failing needs (failures in a row and since when), and when a browser
 * last registered one (a user past the per-user cap loses the subscription registered longest ago).
 */
export class PushSubscriptionHealth1764200000000 implements MigrationInterface {
  name = 'PushSubscriptionHealth1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alerts.push_subscriptions
        ADD COLUMN failures integer NOT NULL DEFAULT 0,
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN registered_at timestamptz`);
    // existing rows: registered when created (a column default would rewrite nothing either way, but keeps it explicit)
    await q.query(`UPDATE alerts.push_subscriptions SET registered_at = created_at`);
    await q.query(`ALTER TABLE alerts.push_subscriptions ALTER COLUMN registered_at SET DEFAULT now(), ALTER COLUMN registered_at SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.push_subscriptions DROP COLUMN registered_at, DROP COLUMN failing_since, DROP COLUMN failures`);
  }
}

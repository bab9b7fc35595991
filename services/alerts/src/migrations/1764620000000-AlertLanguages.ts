import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts in more than one language (issue #19): an alert's text in other languages than English, by language code
 * ({"es": {"title": ..., "message": ...}}; '{}' for none), and the language each user reads alerts in (null until
 * they choose one: English).
 */
export class AlertLanguages1764620000000 implements MigrationInterface {
  name = 'AlertLanguages1764620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN translations jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(translations) = 'object')`);
    await q.query(`ALTER TABLE alerts.user_preferences ADD COLUMN language text CHECK (language ~ '^[a-z]{2}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN language`);
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN translations`);
  }
}

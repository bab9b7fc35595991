import { MigrationInterface, QueryRunner } from 'typeorm';

/** The e-mail channel in the admin settings, like SMS: on or off, its relay (SMTP_URL until saved) and sender. */
export class EmailSettings1764300000004 implements MigrationInterface {
  name = 'EmailSettings1764300000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE alerts.admin_settings ADD COLUMN email_enabled boolean NOT NULL DEFAULT true, ADD COLUMN smtp_url text, ADD COLUMN mail_from text`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.admin_settings DROP COLUMN mail_from, DROP COLUMN smtp_url, DROP COLUMN email_enabled`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console counts each alert's answers ("I'm Safe" marks, help requests) with every alert it shows and with every
 * progress event: by alert, from these indexes, not by scanning the tables.
 */
export class ResponseTallies1764300000002 implements MigrationInterface {
  name = 'ResponseTallies1764300000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX alert_reads_alert_idx ON alerts.alert_reads (alert_id)`);
    await q.query(`CREATE INDEX help_requests_alert_idx ON alerts.help_requests (alert_id, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alerts.help_requests_alert_idx`);
    await q.query(`DROP INDEX alerts.alert_reads_alert_idx`);
  }
}

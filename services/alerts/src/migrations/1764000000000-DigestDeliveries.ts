import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Held deliveries (quiet hours, hourly/daily/weekly frequency) that come due together go out as one digest
 * message per user and channel. The message is sent under one of them (the lead); the others point at it
 * through merged_into, so a retry of the lead's job finds them again and the lead's outcome is theirs.
 * Only held rows are ever merged, so the index stays small.
 */
export class DigestDeliveries1764000000000 implements MigrationInterface {
  name = 'DigestDeliveries1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alert_deliveries ADD COLUMN merged_into uuid`);
    await q.query(`CREATE INDEX alert_deliveries_merged_idx ON alerts.alert_deliveries (merged_into) WHERE merged_into IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alerts.alert_deliveries_merged_idx`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN merged_into`);
  }
}

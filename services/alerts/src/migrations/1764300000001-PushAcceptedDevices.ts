import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The push subscriptions that took a delivery's message, so that a retry after one of a user's devices failed
 * goes only to the devices that did not get it (the others are not sent it twice), and the delivery counts as
 * sent once any device took it. A nullable column without a default: adding it rewrites nothing.
 */
export class PushAcceptedDevices1764300000001 implements MigrationInterface {
  name = 'PushAcceptedDevices1764300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alert_deliveries ADD COLUMN push_accepted uuid[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN push_accepted`);
  }
}

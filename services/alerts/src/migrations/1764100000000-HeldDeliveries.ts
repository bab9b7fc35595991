import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A summary's `held` count (pending deliveries whose not_before is still ahead) cannot be a counter like the
 * others: it changes when not_before passes, with no row update. It is counted when a summary is read, from this
 * index: only held rows are in it (not_before is written once, at insert), ordered by release time so the count
 * reads just those still ahead and fetches their status. Its columns never change after the insert, so the
 * pending -> sending -> sent updates stay HOT (see HotDeliveryUpdates); status in the predicate would break that.
 */
export class HeldDeliveries1764100000000 implements MigrationInterface {
  name = 'HeldDeliveries1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX alert_deliveries_held_idx ON alerts.alert_deliveries (alert_id, not_before) INCLUDE (channel) WHERE not_before IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alerts.alert_deliveries_held_idx`);
  }
}

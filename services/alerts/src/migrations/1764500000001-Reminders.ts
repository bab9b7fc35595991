import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-alert escalation: "remind whoever has not answered after N minutes". The alert keeps its delay, when the
 * reminder went and to how many; a reminder is a delivery of its own (round 1) beside the one that reached the person
 * (round 0), with its own id, status and attempts, so the original's outcome is never overwritten. `round` is never
 * updated, so its place in the unique key costs the hot status updates nothing (HotDeliveryUpdates).
 */
export class Reminders1764500000001 implements MigrationInterface {
  name = 'Reminders1764500000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts
      ADD COLUMN remind_after_minutes integer CHECK (remind_after_minutes BETWEEN 5 AND 1440),
      ADD COLUMN reminded_at timestamptz,
      ADD COLUMN reminders integer`);
    await q.query(`CREATE INDEX alerts_reminder_due_idx ON alerts.alerts (dispatched_at) WHERE remind_after_minutes IS NOT NULL AND reminded_at IS NULL`);
    await q.query(`ALTER TABLE alerts.alert_deliveries ADD COLUMN round smallint NOT NULL DEFAULT 0`);
    await q.query(`CREATE UNIQUE INDEX alert_deliveries_round_key ON alerts.alert_deliveries (alert_id, user_id, channel, round)`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP CONSTRAINT alert_deliveries_alert_id_user_id_channel_key`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(
      `ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN ('created', 'sent', 'cancelled', 'expired', 'retried', 'fallback', 'reminded'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM alerts.alert_audit WHERE action = 'reminded'`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(
      `ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN ('created', 'sent', 'cancelled', 'expired', 'retried', 'fallback'))`,
    );
    await q.query(`DELETE FROM alerts.alert_deliveries WHERE round <> 0`);
    await q.query(`ALTER TABLE alerts.alert_deliveries ADD CONSTRAINT alert_deliveries_alert_id_user_id_channel_key UNIQUE (alert_id, user_id, channel)`);
    await q.query(`DROP INDEX alerts.alert_deliveries_round_key`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN round`);
    await q.query(`DROP INDEX alerts.alerts_reminder_due_idx`);
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN reminders, DROP COLUMN reminded_at, DROP COLUMN remind_after_minutes`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counts and reports that add up (issue #38).
 *
 * - alert_deliveries.last_error: the error of a delivery's last failed attempt. `error` is the row's current state and a
 *   success clears it; the per-recipient report must still show why the first attempts failed beside the success.
 * - alert_deliveries.fallback: the row was written by an operator's "send to the unreached". It carries the alert
 *   itself (kind 'alert', which the senders, reminders and updates read as such), so what sent it is a column of its own.
 * - help_requests: the phone and the home the person had when they asked (where the alert was sent to them for), and
 *   the resolution: who, when, and the note of what was done.
 * - alerts.recipients of alerts already updated or given a fallback: counted again over every round's rows, as the
 *   dispatcher now keeps it (DeliveriesRepository.recountRecipients).
 */
export class DeliveryLedger1764700000000 implements MigrationInterface {
  name = 'DeliveryLedger1764700000000';

  async up(q: QueryRunner): Promise<void> {
    // Constant defaults: no table rewrite on PostgreSQL 11+.
    await q.query(`ALTER TABLE alerts.alert_deliveries ADD COLUMN last_error text, ADD COLUMN fallback boolean NOT NULL DEFAULT false`);
    // Rows whose error is an attempt's (failed, or waiting for a retry): a cancelled row's error is why it was called off.
    await q.query(`UPDATE alerts.alert_deliveries SET last_error = error WHERE error IS NOT NULL AND status IN ('failed', 'pending', 'sending')`);
    await q.query(`ALTER TABLE alerts.help_requests
      ADD COLUMN phone_number text,
      ADD COLUMN home_lat double precision,
      ADD COLUMN home_lng double precision,
      ADD COLUMN resolution_note text,
      ADD COLUMN resolved_by uuid,
      ADD COLUMN resolved_by_email text,
      ADD COLUMN resolved_at timestamptz`);
    await q.query(`
      UPDATE alerts.alerts a SET recipients = greatest(a.recipients, (SELECT count(DISTINCT d.user_id)::int FROM alerts.alert_deliveries d WHERE d.alert_id = a.id))
      WHERE a.recipients IS NOT NULL
        AND (a.version > 1 OR EXISTS (SELECT 1 FROM alerts.alert_audit x WHERE x.alert_id = a.id AND x.action = 'fallback'))`);
    await q.query(`UPDATE alerts.alerts SET concerned = recipients WHERE concerned < recipients`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.help_requests
      DROP COLUMN resolved_at, DROP COLUMN resolved_by_email, DROP COLUMN resolved_by, DROP COLUMN resolution_note,
      DROP COLUMN home_lng, DROP COLUMN home_lat, DROP COLUMN phone_number`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN fallback, DROP COLUMN last_error`);
  }
}

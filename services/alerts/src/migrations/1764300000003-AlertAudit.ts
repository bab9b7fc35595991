import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who did what to which alert, and when: written in the same transaction as the change it records, so the trail
 * has neither gaps nor entries for changes that did not happen. Kept as long as its alert.
 */
export class AlertAudit1764300000003 implements MigrationInterface {
  name = 'AlertAudit1764300000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts.alert_audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        action text NOT NULL CHECK (action IN ('created', 'sent', 'cancelled', 'expired', 'retried', 'fallback')),
        actor_id uuid,
        actor_email text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alert_audit_alert_idx ON alerts.alert_audit (alert_id, at)`);
    await q.query(`CREATE INDEX alert_audit_at_idx ON alerts.alert_audit (at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alerts.alert_audit`);
  }
}

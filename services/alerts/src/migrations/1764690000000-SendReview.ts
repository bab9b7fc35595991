import { MigrationInterface, QueryRunner } from 'typeorm';

const ACTIONS_BEFORE = `'created', 'sent', 'cancelled', 'expired', 'retried', 'fallback', 'reminded', 'updated', 'all_clear'`;
const ACTIONS_ADDED = `'scheduled', 'approval_requested', 'approved', 'rejected', 'break_glass'`;

/**
 * Nothing goes out unreviewed (issue 38): an alert can wait for its send time (`scheduled`, fired by the sweep from
 * `send_at`) or for a second person (`pending_approval`, under the single-row approval policy, off by default). The
 * request and its decision (`approval`) and a send without it (`break_glass`) stay on the alert as AdminAlert shows
 * them (jsonb in the contract's shape: they are read and written whole, never queried by part). The author's e-mail is
 * kept beside their id so that "Created by" names a person without asking the identity service.
 */
export class SendReview1764690000000 implements MigrationInterface {
  name = 'SendReview1764690000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts
      ADD COLUMN send_at timestamptz,
      ADD COLUMN created_by_email text,
      ADD COLUMN approval jsonb CHECK (approval IS NULL OR jsonb_typeof(approval) = 'object'),
      ADD COLUMN break_glass jsonb CHECK (break_glass IS NULL OR jsonb_typeof(break_glass) = 'object')`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_status_check`);
    await q.query(
      `ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_status_check
       CHECK (status IN ('draft','scheduled','pending_approval','active','expired','cancelled','all_clear'))`,
    );
    // A scheduled alert has its time.
    await q.query(`ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_scheduled_send_at CHECK (status <> 'scheduled' OR send_at IS NOT NULL)`);
    // The sweep's claim of the sends that came due.
    await q.query(`CREATE INDEX alerts_scheduled_due_idx ON alerts.alerts (send_at) WHERE status = 'scheduled'`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(`ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN (${ACTIONS_BEFORE}, ${ACTIONS_ADDED}))`);
    await q.query(`
      CREATE TABLE alerts.approval_policy (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        mode text NOT NULL CHECK (mode IN ('off', 'severity', 'all')),
        min_severity text NOT NULL CHECK (min_severity IN ('low','medium','high','critical')),
        cap_automatic boolean NOT NULL,
        updated_by uuid,
        updated_by_email text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alerts.approval_policy`);
    await q.query(`DELETE FROM alerts.alert_audit WHERE action IN (${ACTIONS_ADDED})`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(`ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN (${ACTIONS_BEFORE}))`);
    await q.query(`DROP INDEX alerts.alerts_scheduled_due_idx`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_scheduled_send_at`);
    // What waited never went out: back to drafts, to be sent by hand.
    await q.query(`UPDATE alerts.alerts SET status = 'draft' WHERE status IN ('scheduled', 'pending_approval')`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_status_check`);
    await q.query(`ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_status_check CHECK (status IN ('draft','active','expired','cancelled','all_clear'))`);
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN break_glass, DROP COLUMN approval, DROP COLUMN created_by_email, DROP COLUMN send_at`);
  }
}

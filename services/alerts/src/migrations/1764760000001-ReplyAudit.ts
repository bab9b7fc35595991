import { MigrationInterface, QueryRunner } from 'typeorm';

const ACTIONS_BEFORE = `'created', 'sent', 'cancelled', 'expired', 'retried', 'fallback', 'reminded', 'updated', 'all_clear',
  'scheduled', 'approval_requested', 'approved', 'rejected', 'break_glass'`;

/**
 * Issue #39: a reply by SMS or a key pressed in an alert's call is audited on the alert it answers
 * (`reply_received`, details { channel, intent }: never the number or the text).
 */
export class ReplyAudit1764760000001 implements MigrationInterface {
  name = 'ReplyAudit1764760000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(`ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN (${ACTIONS_BEFORE}, 'reply_received'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM alerts.alert_audit WHERE action = 'reply_received'`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(`ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN (${ACTIONS_BEFORE}))`);
  }
}

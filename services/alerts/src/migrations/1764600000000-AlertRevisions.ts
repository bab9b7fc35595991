import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An alert's life after it went out: updates (a new version of the same alert) and the all-clear. The alert row always
 * holds the current version; alert_versions keeps every version as it was sent (the first is written at the first
 * change, from the row as it stood), with who changed what and when it was fanned out. A delivery says what it
 * carries (`kind`): the alert itself, a reminder, an update to someone it reached, the news that they are no longer
 * in the area, or the all-clear. Each version's deliveries are a round of their own (100 + version; the all-clear
 * ALL_CLEAR_ROUND), so the unique key lets one person get one message per version and channel, never two.
 */
export class AlertRevisions1764600000000 implements MigrationInterface {
  name = 'AlertRevisions1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts
      ADD COLUMN version integer NOT NULL DEFAULT 1,
      ADD COLUMN all_clear_at timestamptz,
      ADD COLUMN all_clear_message text`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_status_check`);
    await q.query(`ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_status_check CHECK (status IN ('draft','active','expired','cancelled','all_clear'))`);
    await q.query(`
      CREATE TABLE alerts.alert_versions (
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        kind text NOT NULL CHECK (kind IN ('original', 'update', 'all_clear')),
        snapshot jsonb NOT NULL,
        changed text[] NOT NULL DEFAULT '{}',
        actor_id uuid,
        actor_email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz,
        recipients integer,
        PRIMARY KEY (alert_id, version)
      )`);
    // The sweep's look for a fan-out whose job was lost.
    await q.query(`CREATE INDEX alert_versions_undispatched_idx ON alerts.alert_versions (created_at) WHERE dispatched_at IS NULL`);
    await q.query(`ALTER TABLE alerts.alert_deliveries
      ADD COLUMN kind text NOT NULL DEFAULT 'alert' CHECK (kind IN ('alert', 'reminder', 'update', 'left_area', 'all_clear'))`);
    await q.query(`UPDATE alerts.alert_deliveries SET kind = 'reminder' WHERE round = 1`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(
      `ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check
       CHECK (action IN ('created', 'sent', 'cancelled', 'expired', 'retried', 'fallback', 'reminded', 'updated', 'all_clear'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM alerts.alert_audit WHERE action IN ('updated', 'all_clear')`);
    await q.query(`ALTER TABLE alerts.alert_audit DROP CONSTRAINT alert_audit_action_check`);
    await q.query(
      `ALTER TABLE alerts.alert_audit ADD CONSTRAINT alert_audit_action_check CHECK (action IN ('created', 'sent', 'cancelled', 'expired', 'retried', 'fallback', 'reminded'))`,
    );
    await q.query(`DELETE FROM alerts.alert_deliveries WHERE kind IN ('update', 'left_area', 'all_clear')`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN kind`);
    await q.query(`DROP TABLE alerts.alert_versions`);
    await q.query(`UPDATE alerts.alerts SET status = 'expired' WHERE status = 'all_clear'`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_status_check`);
    await q.query(`ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_status_check CHECK (status IN ('draft','active','expired','cancelled'))`);
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN all_clear_message, DROP COLUMN all_clear_at, DROP COLUMN version`);
  }
}

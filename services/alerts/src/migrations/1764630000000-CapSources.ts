import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Official warnings in (issue 23): the CAP sources an admin follows, every CAP message taken from one (tracked per
 * source by sender and identifier, so the same message fetched twice creates nothing and a later Update or Cancel
 * finds the Beacon alert it references), and the documents refused with their reason. An alert made from a CAP
 * message has source 'cap' and source_ref `<source id>:<sender>:<identifier>`.
 */
export class CapSources1764630000000 implements MigrationInterface {
  name = 'CapSources1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_source_check`);
    await q.query(`ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_source_check CHECK (source IN ('admin','incident','test','cap'))`);
    await q.query(`
      CREATE TABLE alerts.cap_sources (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        url text NOT NULL,
        interval_seconds integer NOT NULL CHECK (interval_seconds BETWEEN 30 AND 86400),
        categories text[] NOT NULL DEFAULT '{}',
        severities text[] NOT NULL DEFAULT '{}',
        mode text NOT NULL CHECK (mode IN ('draft','send','send_extreme_immediate')),
        channels text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        next_fetch_at timestamptz NOT NULL DEFAULT now(),
        last_fetch_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        failures integer NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX cap_sources_due_idx ON alerts.cap_sources (next_fetch_at) WHERE enabled`);
    await q.query(`
      CREATE TABLE alerts.cap_source_messages (
        source_id uuid NOT NULL REFERENCES alerts.cap_sources(id) ON DELETE CASCADE,
        sender text NOT NULL,
        identifier text NOT NULL,
        sent text NOT NULL,
        msg_type text NOT NULL,
        url text,
        alert_id uuid REFERENCES alerts.alerts(id) ON DELETE SET NULL,
        outcome text NOT NULL,
        xml text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (source_id, sender, identifier)
      )`);
    await q.query(`CREATE INDEX cap_source_messages_alert_idx ON alerts.cap_source_messages (alert_id) WHERE alert_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE alerts.cap_source_refusals (
        id bigserial PRIMARY KEY,
        source_id uuid NOT NULL REFERENCES alerts.cap_sources(id) ON DELETE CASCADE,
        url text,
        reason text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX cap_source_refusals_source_idx ON alerts.cap_source_refusals (source_id, at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alerts.cap_source_refusals`);
    await q.query(`DROP TABLE alerts.cap_source_messages`);
    await q.query(`DROP TABLE alerts.cap_sources`);
    await q.query(`DELETE FROM alerts.alerts WHERE source = 'cap'`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_source_check`);
    await q.query(`ALTER TABLE alerts.alerts ADD CONSTRAINT alerts_source_check CHECK (source IN ('admin','incident','test'))`);
  }
}

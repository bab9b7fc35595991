import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An alert's dispatch intent, committed with the alert itself (a transactional outbox): a trigger records it in the
 * same transaction that makes the alert active (created active, a draft sent, a CAP message taken in send mode), so
 * an alert accepted while Redis is down is not left to the sweep's late re-drive. DispatchOutbox queues the dispatch
 * job and deletes the row; what Redis refused stays until it answers again.
 */
export class DispatchOutbox1764670000000 implements MigrationInterface {
  name = 'DispatchOutbox1764670000000';

  async up(q: QueryRunner) {
    await q.query(`
      CREATE TABLE alerts.dispatch_outbox (
        alert_id uuid PRIMARY KEY REFERENCES alerts.alerts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        -- the request that made the alert active, so the job the relay queues later still leads back to it
        request_id text
      )`);
    await q.query(`
      CREATE FUNCTION alerts.record_dispatch_intent() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'active' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'active') THEN
          INSERT INTO alerts.dispatch_outbox (alert_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER alerts_dispatch_intent AFTER INSERT OR UPDATE OF status ON alerts.alerts FOR EACH ROW EXECUTE FUNCTION alerts.record_dispatch_intent()`,
    );
  }

  async down(q: QueryRunner) {
    await q.query(`DROP TRIGGER alerts_dispatch_intent ON alerts.alerts`);
    await q.query(`DROP FUNCTION alerts.record_dispatch_intent()`);
    await q.query(`DROP TABLE alerts.dispatch_outbox`);
  }
}

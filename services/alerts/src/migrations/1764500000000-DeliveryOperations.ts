import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the live operations view reads while an alert goes out, kept as cheap to read as the delivery counts:
 *
 * - `next_attempt_at`: when a delivery that failed transiently will be tried again (set by the channel job that
 *   failed, cleared by its next outcome). Its partial index holds only rows waiting for a retry, so counting them per
 *   alert is one small index probe. No index reads `status`: a status change must stay a HOT update
 *   (HotDeliveryUpdates), and an unchanged NULL here does not prevent one.
 * - `alert_delivery_timeline`: outcomes per alert, channel and 5-second bucket (succeeded, failed for good, failed
 *   and to be retried), and `alert_failure_reasons`: deliveries failed for good per alert, channel and reason. Both
 *   are maintained per statement from the transition tables, like alert_delivery_counts, so a batch of 500 outcomes
 *   costs one upsert per bucket and per distinct reason, and neither is read by scanning an alert's deliveries.
 */
export class DeliveryOperations1764500000000 implements MigrationInterface {
  name = 'DeliveryOperations1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alert_deliveries ADD COLUMN next_attempt_at timestamptz`);
    await q.query(`CREATE INDEX alert_deliveries_retry_idx ON alerts.alert_deliveries (alert_id) WHERE next_attempt_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE alerts.alert_delivery_timeline (
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        channel text NOT NULL,
        bucket timestamptz NOT NULL,
        succeeded integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        retried integer NOT NULL DEFAULT 0,
        PRIMARY KEY (alert_id, channel, bucket)
      )`);
    await q.query(`
      CREATE TABLE alerts.alert_failure_reasons (
        alert_id uuid NOT NULL REFERENCES alerts.alerts(id) ON DELETE CASCADE,
        channel text NOT NULL,
        reason text NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (alert_id, channel, reason)
      )`);
    // Outcomes are what a send makes of a claimed row: every one leaves 'sending'. A transient failure goes back to
    // pending with its attempt counted (a deferred send, never started, gives its attempt back). Leaving 'failed'
    // (an operator's Retry failed) takes the delivery out of its reason's count.
    await q.query(`
      CREATE FUNCTION alerts.apply_delivery_outcomes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO alerts.alert_delivery_timeline AS t (alert_id, channel, bucket, succeeded, failed, retried)
        SELECT n.alert_id, n.channel, date_bin('5 seconds', now(), timestamptz '2000-01-01 00:00:00+00'),
               count(*) FILTER (WHERE n.status IN ('sent','delivered','read')),
               count(*) FILTER (WHERE n.status = 'failed'),
               count(*) FILTER (WHERE n.status = 'pending' AND n.attempts = o.attempts)
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE o.status = 'sending' AND n.status <> 'sending'
        GROUP BY 1, 2, 3
        HAVING count(*) FILTER (WHERE n.status IN ('sent','delivered','read','failed') OR (n.status = 'pending' AND n.attempts = o.attempts)) > 0
        ORDER BY 1, 2, 3
        ON CONFLICT (alert_id, channel, bucket) DO UPDATE
          SET succeeded = t.succeeded + excluded.succeeded, failed = t.failed + excluded.failed, retried = t.retried + excluded.retried;

        INSERT INTO alerts.alert_failure_reasons AS r (alert_id, channel, reason, n)
        SELECT alert_id, channel, reason, sum(d)::int FROM (
          SELECT n.alert_id, n.channel, left(coalesce(n.error, 'unknown'), 200) AS reason, 1 AS d
          FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'failed' AND o.status <> 'failed'
          UNION ALL
          SELECT o.alert_id, o.channel, left(coalesce(o.error, 'unknown'), 200), -1
          FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.status = 'failed' AND n.status <> 'failed'
        ) x GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (alert_id, channel, reason) DO UPDATE SET n = r.n + excluded.n;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER alert_deliveries_outcomes_upd AFTER UPDATE ON alerts.alert_deliveries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.apply_delivery_outcomes()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER alert_deliveries_outcomes_upd ON alerts.alert_deliveries`);
    await q.query(`DROP FUNCTION alerts.apply_delivery_outcomes()`);
    await q.query(`DROP TABLE alerts.alert_failure_reasons`);
    await q.query(`DROP TABLE alerts.alert_delivery_timeline`);
    await q.query(`DROP INDEX alerts.alert_deliveries_retry_idx`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN next_attempt_at`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery roll-ups (alert_delivery_counts, alert_delivery_timeline, alert_failure_reasons) get a `stripe`: each
 * database connection adds its deltas to rows of its own (the backend's pid modulo ROLLUP_STRIPES), and readers sum
 * the stripes.
 *
 * Why: every claim and every outcome write of one alert used to upsert the same few rows (its channel's 'sending' and
 * 'sent' counts, the current 5-second bucket), so the dispatcher's concurrent writers queued on those rows' locks,
 * each holding them until its commit. At 1M subscribers that queue, not the work, was the outcome writes' time
 * (pg_stat_statements: 3 ms per statement, nearly all of it in the count trigger waiting). With a stripe per
 * connection, concurrent statements touch different rows. A stripe's own count may go negative (a delivery claimed on
 * one connection and recorded on another); only the sum over the stripes is meaningful.
 *
 * The outcomes trigger also returns at once for a statement that records no outcome (a claim), instead of joining
 * its transition tables to find nothing.
 */
const ROLLUP_STRIPES = 16;

const tables = [
  { table: 'alert_delivery_counts', key: 'alert_id, channel, status' },
  { table: 'alert_delivery_timeline', key: 'alert_id, channel, bucket' },
  { table: 'alert_failure_reasons', key: 'alert_id, channel, reason' },
] as const;

/**
 * The roll-up triggers, with the stripe (up) or without it (down: as CreateAlerts and DeliveryOperations made them,
 * except that a DELETE is added as negative deltas, which is the same thing for unstriped rows).
 */
function triggerFunctions(striped: boolean) {
  const col = striped ? ', stripe' : '';
  const val = striped ? ', alerts.rollup_stripe()' : '';
  const by = striped ? '1, 2, 3, 4' : '1, 2, 3';
  return [
    `CREATE OR REPLACE FUNCTION alerts.apply_delivery_count_delta() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO alerts.alert_delivery_counts AS c (alert_id, channel, status${col}, n)
          SELECT alert_id, channel, status${val}, count(*) FROM new_rows GROUP BY ${by} ORDER BY ${by}
          ON CONFLICT (alert_id, channel, status${col}) DO UPDATE SET n = c.n + excluded.n;
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO alerts.alert_delivery_counts AS c (alert_id, channel, status${col}, n)
          SELECT alert_id, channel, status${val}, sum(d)::int FROM (
            SELECT alert_id, channel, status, 1 AS d FROM new_rows
            UNION ALL
            SELECT alert_id, channel, status, -1 AS d FROM old_rows
          ) x GROUP BY ${by} HAVING sum(d) <> 0 ORDER BY ${by}
          ON CONFLICT (alert_id, channel, status${col}) DO UPDATE SET n = c.n + excluded.n;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO alerts.alert_delivery_counts AS c (alert_id, channel, status${col}, n)
          SELECT alert_id, channel, status${val}, -count(*)::int FROM old_rows GROUP BY ${by} ORDER BY ${by}
          ON CONFLICT (alert_id, channel, status${col}) DO UPDATE SET n = c.n + excluded.n;
        END IF;
        RETURN NULL;
      END $$`,
    `CREATE OR REPLACE FUNCTION alerts.apply_delivery_outcomes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- A claim (pending -> sending) is no outcome: leave before joining the transition tables.
        IF NOT EXISTS (SELECT 1 FROM old_rows WHERE status IN ('sending','failed')) AND NOT EXISTS (SELECT 1 FROM new_rows WHERE status = 'failed') THEN
          RETURN NULL;
        END IF;
        INSERT INTO alerts.alert_delivery_timeline AS t (alert_id, channel, bucket${col}, succeeded, failed, retried)
        SELECT n.alert_id, n.channel, date_bin('5 seconds', now(), timestamptz '2000-01-01 00:00:00+00')${val},
               count(*) FILTER (WHERE n.status IN ('sent','delivered','read')),
               count(*) FILTER (WHERE n.status = 'failed'),
               count(*) FILTER (WHERE n.status = 'pending' AND n.attempts = o.attempts)
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE o.status = 'sending' AND n.status <> 'sending'
        GROUP BY ${by}
        HAVING count(*) FILTER (WHERE n.status IN ('sent','delivered','read','failed') OR (n.status = 'pending' AND n.attempts = o.attempts)) > 0
        ORDER BY ${by}
        ON CONFLICT (alert_id, channel, bucket${col}) DO UPDATE
          SET succeeded = t.succeeded + excluded.succeeded, failed = t.failed + excluded.failed, retried = t.retried + excluded.retried;

        INSERT INTO alerts.alert_failure_reasons AS r (alert_id, channel, reason${col}, n)
        SELECT alert_id, channel, reason${val}, sum(d)::int FROM (
          SELECT n.alert_id, n.channel, left(coalesce(n.error, 'unknown'), 200) AS reason, 1 AS d
          FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'failed' AND o.status <> 'failed'
          UNION ALL
          SELECT o.alert_id, o.channel, left(coalesce(o.error, 'unknown'), 200), -1
          FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.status = 'failed' AND n.status <> 'failed'
        ) x GROUP BY ${by} HAVING sum(d) <> 0 ORDER BY ${by}
        ON CONFLICT (alert_id, channel, reason${col}) DO UPDATE SET n = r.n + excluded.n;
        RETURN NULL;
      END $$`,
  ];
}

export class StripedRollups1764640000000 implements MigrationInterface {
  name = 'StripedRollups1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE FUNCTION alerts.rollup_stripe() RETURNS smallint LANGUAGE sql STABLE AS $$ SELECT (pg_backend_pid() % ${ROLLUP_STRIPES})::smallint $$`,
    );
    for (const { table, key } of tables) {
      await q.query(`ALTER TABLE alerts.${table} ADD COLUMN stripe smallint NOT NULL DEFAULT 0`);
      await q.query(`ALTER TABLE alerts.${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${key}, stripe)`);
    }
    for (const sql of triggerFunctions(true)) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of triggerFunctions(false)) await q.query(sql);
    // Each key's stripes folded into one row, then the column goes.
    const sums: Record<(typeof tables)[number]['table'], string> = {
      alert_delivery_counts: 'sum(n)::int AS n',
      alert_delivery_timeline: 'sum(succeeded)::int AS succeeded, sum(failed)::int AS failed, sum(retried)::int AS retried',
      alert_failure_reasons: 'sum(n)::int AS n',
    };
    for (const { table, key } of tables) {
      await q.query(`CREATE TEMP TABLE folded AS SELECT ${key}, ${sums[table]} FROM alerts.${table} GROUP BY ${key}`);
      await q.query(`DELETE FROM alerts.${table}`);
      await q.query(`ALTER TABLE alerts.${table} DROP CONSTRAINT ${table}_pkey, DROP COLUMN stripe, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${key})`);
      await q.query(`INSERT INTO alerts.${table} SELECT * FROM folded`);
      await q.query(`DROP TABLE folded`);
    }
    await q.query(`DROP FUNCTION alerts.rollup_stripe()`);
  }
}

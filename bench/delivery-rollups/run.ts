import { Client, Pool } from 'pg';
import { migrateUp } from '@beacon/common';
import { alertsDatabase } from '../../services/alerts/src/database';

/**
 * What the live operations view's roll-ups (the DeliveryOperations trigger: outcome buckets and failure reasons) cost
 * the dispatch's hottest statement: recording outcomes, 500 deliveries per statement from several connections at
 * once, as channel workers do. Baseline: the same statements with that one trigger disabled, measured in the same run,
 * rounds alternating, on the same rows. Prints microseconds per delivery and the ratio.
 *
 *   npm run build:server && node dist/bench/delivery-rollups/run.js [--deliveries N] [--rounds R] [--connections C]
 */
const arg = (flag: string, fallback: number) => {
  const i = process.argv.indexOf(flag);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer`);
  return n;
};
const DELIVERIES = arg('--deliveries', 200_000);
const ROUNDS = arg('--rounds', 3);
const CONNECTIONS = arg('--connections', 4);
const BATCH = 500;
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL || process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'beacon_bench_rollups';

async function admin(sql: string) {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  await migrateUp(url.toString(), alertsDatabase);
  const pool = new Pool({ connectionString: url.toString(), max: CONNECTIONS });
  try {
    const [{ id: alertId }] = (
      await pool.query(
        `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at, dispatched_at)
         VALUES ('Bench', 'Outcome roll-ups', 'Emergency', 'critical', 'public_safety', '{push}', 'active', now(), now()) RETURNING id`,
      )
    ).rows;
    await pool.query(
      `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status, attempts)
       SELECT $1, gen_random_uuid(), 'push', 'sending', 1 FROM generate_series(1, $2)`,
      [alertId, DELIVERIES],
    );
    await pool.query(`VACUUM ANALYZE alerts.alert_deliveries`);
    const ids: string[] = (await pool.query(`SELECT id FROM alerts.alert_deliveries ORDER BY id`)).rows.map((r: { id: string }) => r.id);
    const batches = Array.from({ length: Math.ceil(ids.length / BATCH) }, (_, i) => ids.slice(i * BATCH, (i + 1) * BATCH));

    // The outcome write of recordOutcomes, reduced to its effect: 1 in 50 fails for good with a provider's reason.
    const record = (batch: string[]) =>
      pool.query(
        `UPDATE alerts.alert_deliveries d SET
           status = CASE WHEN right(d.id::text, 2) = '00' THEN 'failed' ELSE 'sent' END,
           error = CASE WHEN right(d.id::text, 2) = '00' THEN 'push service answered 410 Gone' END,
           sent_at = now(), next_attempt_at = NULL, updated_at = now()
         WHERE d.id = ANY($1::uuid[]) AND d.status = 'sending'`,
        [batch],
      );
    const reset = async () => {
      await pool.query(`ALTER TABLE alerts.alert_deliveries DISABLE TRIGGER alert_deliveries_outcomes_upd`);
      await pool.query(`UPDATE alerts.alert_deliveries SET status = 'sending', error = NULL, sent_at = NULL`);
      await pool.query(`TRUNCATE alerts.alert_delivery_timeline, alerts.alert_failure_reasons`);
      await pool.query(`VACUUM alerts.alert_deliveries`);
    };
    const run = async (withRollups: boolean) => {
      await reset();
      await pool.query(`ALTER TABLE alerts.alert_deliveries ${withRollups ? 'ENABLE' : 'DISABLE'} TRIGGER alert_deliveries_outcomes_upd`);
      let next = 0;
      const t0 = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (next < batches.length) await record(batches[next++]);
        }),
      );
      const us = Number(process.hrtime.bigint() - t0) / 1000 / DELIVERIES;
      if (withRollups) {
        const [{ n }] = (await pool.query(`SELECT coalesce(sum(succeeded + failed), 0)::int AS n FROM alerts.alert_delivery_timeline`)).rows;
        if (n !== DELIVERIES) throw new Error(`the timeline counted ${n} outcomes of ${DELIVERIES}`);
      }
      return us;
    };

    await run(true); // warm-up: caches and plans
    const withRollups: number[] = [];
    const baseline: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await run(false));
      withRollups.push(await run(true));
    }
    const b = median(baseline);
    const w = median(withRollups);
    console.log(`outcome writes, ${DELIVERIES} deliveries in batches of ${BATCH} on ${CONNECTIONS} connections, median of ${ROUNDS} rounds`);
    console.log(`baseline (no operations roll-ups): ${b.toFixed(2)} us/delivery`);
    console.log(`with operations roll-ups:          ${w.toFixed(2)} us/delivery`);
    console.log(`ratio to baseline: ${(w / b).toFixed(3)}x (${(((w - b) / b) * 100).toFixed(1)}% ${w >= b ? 'slower' : 'faster'})`);
  } finally {
    await pool.end();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

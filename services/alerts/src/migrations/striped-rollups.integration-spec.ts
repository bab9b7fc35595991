import { Client } from 'pg';
import { migrateDown, migrateUp } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';

/**
 * StripedRollups on real PostgreSQL: two connections writing one alert's deliveries at once do not wait for each
 * other on the roll-up rows, the stripes add up to the deliveries' real counts, and the down migration folds them.
 */
describe('StripedRollups migration', () => {
  let db: TestDatabase;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await db?.drop();
  });

  const connect = async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    clients.push(c);
    return c;
  };

  /** Two connections whose stripes differ (the stripe is the backend's pid modulo 16, so two may share one). */
  async function twoStripes(): Promise<[Client, Client]> {
    const first = await connect();
    const stripeOf = async (c: Client) => (await c.query(`SELECT alerts.rollup_stripe() AS s`)).rows[0].s as number;
    const mine = await stripeOf(first);
    for (;;) {
      const other = await connect();
      if ((await stripeOf(other)) !== mine) return [first, other];
    }
  }

  async function alertWithDeliveries(n: number): Promise<{ alertId: string; ids: string[] }> {
    const [{ id: alertId }] = await db.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at)
       VALUES ('Striped', 'Counted in stripes.', 'traffic', 'critical', 'traffic', '{push}', 'active', now()) RETURNING id`,
    );
    const rows = await db.query(
      `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel) SELECT $1, gen_random_uuid(), 'push' FROM generate_series(1, $2) RETURNING id`,
      [alertId, n],
    );
    return { alertId, ids: rows.map((r: { id: string }) => r.id) };
  }

  const counts = (alertId: string) =>
    db.query(
      `SELECT status, sum(n)::int AS n, count(*)::int AS rows FROM alerts.alert_delivery_counts WHERE alert_id = $1 GROUP BY status HAVING sum(n) <> 0 ORDER BY status`,
      [alertId],
    );

  it("lets two connections' open transactions update one alert's deliveries without waiting, and the stripes add up", async () => {
    const { alertId, ids } = await alertWithDeliveries(6);
    const [a, b] = await twoStripes();
    const claim = `UPDATE alerts.alert_deliveries SET status = 'sending', attempts = attempts + 1 WHERE id = ANY($1::uuid[])`;
    await a.query('BEGIN');
    await a.query(claim, [ids.slice(0, 3)]);
    // Before the stripes, this waited for `a` to commit: both upsert the alert's 'pending' and 'sending' counts.
    await b.query(`SET lock_timeout = '3s'`);
    await b.query('BEGIN');
    await b.query(claim, [ids.slice(3)]);
    await b.query(`UPDATE alerts.alert_deliveries SET status = 'sent', sent_at = now() WHERE id = ANY($1::uuid[])`, [ids.slice(3, 5)]);
    await b.query('COMMIT');
    await a.query('COMMIT');

    // Each stripe holds its own connection's deltas ('pending' -3 in both: those rows are left out by the sum).
    expect(await counts(alertId)).toEqual([
      { status: 'sending', n: 4, rows: 2 },
      { status: 'sent', n: 2, rows: 1 },
    ]);
    const real = await db.query(`SELECT status, count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 GROUP BY status ORDER BY status`, [
      alertId,
    ]);
    expect(real).toEqual([
      { status: 'sending', n: 4 },
      { status: 'sent', n: 2 },
    ]);
  });

  it('counts the outcomes timeline and failure reasons per stripe, and its down folds every stripe into one row', async () => {
    const { alertId, ids } = await alertWithDeliveries(4);
    const [a, b] = await twoStripes();
    await db.query(`UPDATE alerts.alert_deliveries SET status = 'sending' WHERE alert_id = $1`, [alertId]);
    const fail = `UPDATE alerts.alert_deliveries SET status = 'failed', error = 'push service answered 400' WHERE id = ANY($1::uuid[])`;
    await a.query(fail, [ids.slice(0, 2)]);
    await b.query(fail, [ids.slice(2)]);
    const reasons = () => db.query(`SELECT reason, n FROM alerts.alert_failure_reasons WHERE alert_id = $1 ORDER BY n`, [alertId]);
    expect(await reasons()).toEqual([
      { reason: 'push service answered 400', n: 2 },
      { reason: 'push service answered 400', n: 2 },
    ]);
    expect(await db.query(`SELECT sum(failed)::int AS failed FROM alerts.alert_delivery_timeline WHERE alert_id = $1`, [alertId])).toEqual([{ failed: 4 }]);

    // Down to before the stripes: the migrations after it go down first.
    const striped = alertsDatabase.migrations.findIndex((m) => new m().name === 'StripedRollups1764640000000');
    await migrateDown(db.url, alertsDatabase, alertsDatabase.migrations.length - striped);
    expect(await reasons()).toEqual([{ reason: 'push service answered 400', n: 4 }]);
    expect(await db.query(`SELECT n FROM alerts.alert_delivery_counts WHERE alert_id = $1 AND status = 'failed'`, [alertId])).toEqual([{ n: 4 }]);
    // Unstriped again, a new outcome still counts.
    const more = await alertWithDeliveries(1);
    await db.query(`UPDATE alerts.alert_deliveries SET status = 'sent' WHERE id = $1`, [more.ids[0]]);
    expect(await db.query(`SELECT n FROM alerts.alert_delivery_counts WHERE alert_id = $1 AND status = 'sent'`, [more.alertId])).toEqual([{ n: 1 }]);

    expect((await migrateUp(db.url, alertsDatabase))[0]).toBe('StripedRollups1764640000000');
    expect(await counts(alertId)).toEqual([{ status: 'failed', n: 4, rows: 1 }]);
  });
});

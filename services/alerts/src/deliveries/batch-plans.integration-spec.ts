import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { DeliveriesRepository, Outcome } from './deliveries.repository';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/**
 * Every node of a plan that finds rows of alert_deliveries (a scan of its table or of one of its indexes), as "type" or
 * "type on index". A bitmap heap scan is not one: it reads the pages its bitmap index scans found, which are.
 */
function deliveryReads(node: PlanNode): string[] {
  const own =
    !['ModifyTable', 'Bitmap Heap Scan'].includes(node['Node Type']) &&
    (node['Relation Name'] === 'alert_deliveries' || node['Index Name']?.startsWith('alert_deliveries'))
      ? [node['Index Name'] ? `${node['Node Type']} on ${node['Index Name']}` : node['Node Type']]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(deliveryReads)];
}

/**
 * How PostgreSQL runs the statements of a channel batch: the claim and the outcome write look the batch's rows up
 * through the primary key, not by reading the table, whatever the table's statistics say. On a table of one large
 * alert's deliveries, planned from the array itself, both read the whole table (or all of an index) for every batch.
 */
describe('a channel batch reads only its own deliveries', () => {
  const ROWS = 20_000;
  const BATCH = 500;
  let db: TestDatabase;
  let ds: DataSource;
  let deliveries: DeliveriesRepository;
  let batch: string[];

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url, extra: { max: 4 } });
    await ds.initialize();
    deliveries = new DeliveriesRepository(ds);
    const [{ id: alertId }] = await ds.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at)
       VALUES ('Wrong-way driver', 'On I-10.', 'traffic', 'critical', 'traffic', '{push}', 'active', now()) RETURNING id`,
    );
    // One alert's fan-out, as the dispatch writes it: every row pending, in user order, and no statistics yet.
    const rows: { id: string }[] = await ds.query(
      `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel)
       SELECT $1, u, 'push' FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, ${ROWS}) ORDER BY 1) s RETURNING id`,
      [alertId],
    );
    batch = rows.slice(ROWS / 2, ROWS / 2 + BATCH).map((r) => r.id);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** Runs `act` and returns the plans of the statements it sent (EXPLAIN of each, with the same parameters). */
  async function plansOf(act: () => Promise<unknown>): Promise<string[][]> {
    const spy = jest.spyOn(ds, 'query');
    let sent: unknown[][];
    try {
      await act();
    } finally {
      sent = [...spy.mock.calls];
      spy.mockRestore();
    }
    const plans: string[][] = [];
    for (const [sql, params] of sent as [string, unknown[]][]) {
      const [{ 'QUERY PLAN': plan }] = await ds.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      plans.push(deliveryReads((plan as { Plan: PlanNode }[])[0].Plan));
    }
    return plans;
  }

  const onlyPrimaryKey = (reads: string[]) => {
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read).toMatch(/ on alert_deliveries_pkey$/);
  };

  it('the claim probes the primary key for the batch, and takes all of it', async () => {
    let claimed: { id: string }[] = [];
    const [claimPlan] = await plansOf(async () => (claimed = await deliveries.claimBatch(batch, 'push')));
    onlyPrimaryKey(claimPlan);
    expect(claimed.map((d) => d.id).sort()).toEqual([...batch].sort());
  });

  it("the outcome write probes the primary key for the batch's rows, and records every outcome", async () => {
    const outcomes: Outcome[] = batch.map((id) => ({ id, ok: true }));
    const [writePlan] = await plansOf(() => deliveries.recordOutcomes(outcomes, false));
    onlyPrimaryKey(writePlan);
    const [{ sent }] = await ds.query(`SELECT count(*)::int AS sent FROM alerts.alert_deliveries WHERE id = ANY($1::uuid[]) AND status = 'sent'`, [batch]);
    expect(sent).toBe(BATCH);
  });

  it('so do they once the table has statistics in which almost nothing is pending', async () => {
    await ds.query(`UPDATE alerts.alert_deliveries SET status = 'sent', sent_at = now() WHERE status = 'pending'`);
    await ds.query(`ANALYZE alerts.alert_deliveries`);
    await ds.query(`UPDATE alerts.alert_deliveries SET status = 'pending' WHERE id = ANY($1::uuid[])`, [batch]);
    const [claimPlan] = await plansOf(() => deliveries.claimBatch(batch, 'push'));
    onlyPrimaryKey(claimPlan);
    const [writePlan] = await plansOf(() =>
      deliveries.recordOutcomes(
        batch.map((id): Outcome => ({ id, ok: false, failure: 'transient', error: 'timed out' })),
        false,
      ),
    );
    onlyPrimaryKey(writePlan);
  });
});

import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { AuditRepository } from '../alerts/audit.repository';
import { AlertsRepository } from '../alerts/alerts.repository';
import { DeliveriesRepository } from './deliveries.repository';

/** claimHeldBatch on real PostgreSQL: who takes which held delivery, on a first run, a retry and a race. */
describe('held deliveries: claims that gather a digest', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let deliveries: DeliveriesRepository;
  let alerts: AlertsRepository;

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url, extra: { max: 10 } });
    await ds.initialize();
    deliveries = new DeliveriesRepository(ds);
    alerts = new AlertsRepository(ds, deliveries, new AuditRepository(ds));
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  async function newAlert(status = 'active'): Promise<string> {
    const [{ id }] = await ds.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at)
       VALUES ('Held', 'A held alert.', 'weather', 'medium', 'weather', '{push}', $1, now()) RETURNING id`,
      [status],
    );
    return id;
  }

  /** A pending push delivery released `dueInSeconds` from now (negative: already due). */
  async function held(alertId: string, userId: string, dueInSeconds = -1): Promise<string> {
    const [{ id }] = await ds.query(
      `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, not_before) VALUES ($1, $2, 'push', now() + $3 * interval '1 second') RETURNING id`,
      [alertId, userId, dueInSeconds],
    );
    return id;
  }

  const rowsOf = (userId: string) =>
    ds.query(`SELECT id, alert_id, status, merged_into, attempts FROM alerts.alert_deliveries WHERE user_id = $1 ORDER BY id`, [userId]);

  it("gathers the user's other due deliveries on the channel, and leaves the rest", async () => {
    const [a, b, c, off] = [await newAlert(), await newAlert(), await newAlert(), await newAlert('cancelled')];
    const user = randomUUID();
    const other = randomUUID();
    const lead = await held(a, user);
    const dueB = await held(b, user);
    const laterC = await held(c, user, 3 * 3600); // due in three hours: not part of this release
    const cancelledAlert = await held(off, user);
    const othersB = await held(b, other); // another user's: never gathered into this user's message
    await ds.query(`INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, not_before) VALUES ($1, $2, 'sms', now() - interval '1 minute')`, [
      b,
      user,
    ]);

    const claimed = await deliveries.claimHeldBatch([lead], 'push', true);
    expect(claimed.map((r) => [r.id, r.lead]).sort()).toEqual(
      [
        [lead, null],
        [dueB, lead],
      ].sort(),
    );
    const after = new Map((await rowsOf(user)).map((r: { id: string }) => [r.id, r]));
    expect(after.get(dueB)).toMatchObject({ status: 'sending', merged_into: lead });
    expect(after.get(laterC)).toMatchObject({ status: 'pending', merged_into: null });
    expect(after.get(cancelledAlert)).toMatchObject({ status: 'pending', merged_into: null });
    expect((await rowsOf(other))[0]).toMatchObject({ id: othersB, status: 'pending' });

    // b's own batch runs later: its row is carried by a's message, so it takes nothing.
    expect(await deliveries.claimHeldBatch([dueB], 'push', true)).toEqual([]);
    expect(await deliveries.claimBatch([dueB], 'push')).toEqual([]);
  });

  it('a retry of the batch takes back what it merged, even when its own alert has gone', async () => {
    const [a, b] = [await newAlert(), await newAlert()];
    const user = randomUUID();
    const lead = await held(a, user);
    const carried = await held(b, user);
    await deliveries.claimHeldBatch([lead], 'push', true);
    // The send failed transiently: both back to pending, still merged.
    await deliveries.recordOutcomes(
      [
        { id: lead, ok: false, failure: 'transient', error: 'x' },
        { id: carried, ok: false, failure: 'transient', error: 'x' },
      ],
      false,
    );

    // Meanwhile a is cancelled: its row is cancelled, the carried row still goes, under the same lead.
    await deliveries.cancelBatch([lead], 'alert cancelled');
    const retry = await deliveries.claimHeldBatch([lead], 'push', false);
    // With it, the recipient's settings as of now (this user has none stored: every channel off, no contacts).
    const none = {
      language: null,
      push_enabled: false,
      sms_enabled: false,
      sms_stopped: false,
      email_enabled: false,
      voice_enabled: false,
      phone_number: null,
      email: null,
      external: false,
      push_accepted: [],
    };
    expect(retry).toEqual([{ id: carried, user_id: user, alert_id: b, attempts: 2, kind: 'alert', lead, ...none }]);
  });

  it("release jobs racing for the same users: each row is taken once, and one claim carries both of a user's rows", async () => {
    // Many claims in flight at once on several connections, as when every held batch of an hour comes due.
    const [a, b] = [await newAlert(), await newAlert()];
    const users = Array.from({ length: 40 }, () => randomUUID());
    const rows = await Promise.all(users.map(async (u) => ({ u, a: await held(a, u), b: await held(b, u) })));
    const claims = await Promise.all(rows.flatMap((r) => [deliveries.claimHeldBatch([r.a], 'push', true), deliveries.claimHeldBatch([r.b], 'push', true)]));
    const taken = claims
      .flat()
      .map((r) => r.id)
      .sort();
    expect(taken).toEqual(rows.flatMap((r) => [r.a, r.b]).sort());
    const split = users.filter((u) => claims.filter((c) => c.some((r) => r.user_id === u)).length !== 1);
    expect(split).toEqual([]);
  });

  it("I'm Safe before a held message goes out: the delivery is read, no claim takes it, and the summary counts it read", async () => {
    const [a, b] = [await newAlert(), await newAlert()];
    const user = randomUUID();
    const heldA = await held(a, user, 3600);
    const dueB = await held(b, user);
    const readB = await held(b, randomUUID());
    await alerts.markRead(a, user);
    expect((await rowsOf(user)).find((r: { id: string }) => r.id === heldA)).toMatchObject({ status: 'read' });
    const [counts] = await ds.query(`SELECT sum(n)::int AS n FROM alerts.alert_delivery_counts WHERE alert_id = $1 AND channel = 'push' AND status = 'read'`, [
      a,
    ]);
    expect(counts.n).toBe(1);

    // Neither its own release job nor another alert's digest for the same user takes it.
    await ds.query(`UPDATE alerts.alert_deliveries SET not_before = now() - interval '1 second' WHERE id = $1`, [heldA]);
    expect(await deliveries.claimHeldBatch([heldA], 'push', true)).toEqual([]);
    expect(await deliveries.claimBatch([heldA], 'push')).toEqual([]);
    expect((await deliveries.claimHeldBatch([dueB], 'push', true)).map((r) => r.id)).toEqual([dueB]);

    // Read while its message is being sent: the outcome, sent or a transient failure, leaves it read (no retry).
    const other = (await ds.query(`SELECT user_id FROM alerts.alert_deliveries WHERE id = $1`, [readB]))[0].user_id;
    expect((await deliveries.claimBatch([readB], 'push')).map((r) => r.id)).toEqual([readB]);
    await alerts.markRead(b, other);
    await deliveries.recordOutcomes([{ id: readB, ok: false, failure: 'transient', error: 'timed out' }], false);
    expect((await rowsOf(other))[0]).toMatchObject({ status: 'read' });
    await alerts.markRead(b, user);
    await deliveries.recordOutcomes([{ id: dueB, ok: true }], false);
    expect((await rowsOf(user)).find((r: { id: string }) => r.id === dueB)).toMatchObject({ status: 'read' });
  });

  it("an alert past its expiry: expired with its held deliveries cancelled, and the expiry audited as Beacon's own", async () => {
    const a = await newAlert();
    const user = randomUUID();
    const row = await held(a, user, 3600);
    await ds.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 second' WHERE id = $1`, [a]);
    const expired = await alerts.expireDue();
    expect(expired.map((r) => r.id)).toContain(a);
    expect((await rowsOf(user)).find((r: { id: string }) => r.id === row)).toMatchObject({ status: 'cancelled' });
    const trail = await ds.query(`SELECT action, actor_id FROM alerts.alert_audit WHERE alert_id = $1`, [a]);
    expect(trail).toEqual([{ action: 'expired', actor_id: null }]);
  });
});

import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { SendTargetsRepository } from './send-targets.repository';

/**
 * An endpoint that keeps failing (not 404/410, which remove it at once) is retired once it has failed a number of
 * times in a row over at least some hours; a success starts the count afresh. A dead browser must not cost every
 * alert a request for ever, and a push service's bad afternoon must not cost a user their subscription.
 */
describe('retiring push endpoints that keep failing', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let state: SendTargetsRepository;
  const retire = { failures: 3, hours: 24 };

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
    state = new SendTargetsRepository(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const subscription = async () => {
    const [row] = await ds.query(`INSERT INTO alerts.push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, 'k', 'a') RETURNING id`, [
      randomUUID(),
      `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
    ]);
    return row.id as string;
  };
  const exists = async (id: string) => (await ds.query(`SELECT 1 FROM alerts.push_subscriptions WHERE id = $1`, [id])).length === 1;
  const failingSinceHoursAgo = (id: string, hours: number) =>
    ds.query(`UPDATE alerts.push_subscriptions SET failing_since = now() - make_interval(hours => $2) WHERE id = $1`, [id, hours]);

  it('keeps an endpoint that failed many times within hours (an outage), retires it once the failures span the period', async () => {
    const id = await subscription();
    for (let i = 0; i < 5; i++) expect(await state.recordSubscriptionFailures([id], retire)).toEqual([]);
    expect(await exists(id)).toBe(true);
    await failingSinceHoursAgo(id, 25);
    expect(await state.recordSubscriptionFailures([id], retire)).toEqual([id]);
    expect(await exists(id)).toBe(false);
  });

  it('does not retire an endpoint failing for long but fewer times than the threshold', async () => {
    const id = await subscription();
    await state.recordSubscriptionFailures([id], retire);
    await failingSinceHoursAgo(id, 48);
    expect(await state.recordSubscriptionFailures([id], retire)).toEqual([]);
    expect(await exists(id)).toBe(true);
  });

  it('starts afresh after a success', async () => {
    const id = await subscription();
    for (let i = 0; i < 3; i++) await state.recordSubscriptionFailures([id], retire);
    await failingSinceHoursAgo(id, 30);
    await state.clearSubscriptionFailures([id]);
    const [row] = await ds.query(`SELECT failures, failing_since FROM alerts.push_subscriptions WHERE id = $1`, [id]);
    expect(row).toEqual({ failures: 0, failing_since: null });
    expect(await state.recordSubscriptionFailures([id], retire)).toEqual([]);
    expect(await exists(id)).toBe(true);
  });

  it("writes nothing for a healthy endpoint's success, and tells the sender which endpoints are failing", async () => {
    const healthy = await subscription();
    const failing = await subscription();
    await state.recordSubscriptionFailures([failing], retire);
    const version = async (id: string) => (await ds.query(`SELECT xmin::text AS v FROM alerts.push_subscriptions WHERE id = $1`, [id]))[0].v;
    const before = await version(healthy);
    await state.clearSubscriptionFailures([healthy]);
    expect(await version(healthy)).toBe(before);

    const [{ user_id: healthyUser }] = await ds.query(`SELECT user_id FROM alerts.push_subscriptions WHERE id = $1`, [healthy]);
    const [{ user_id: failingUser }] = await ds.query(`SELECT user_id FROM alerts.push_subscriptions WHERE id = $1`, [failing]);
    const targets = await state.pushTargets([healthyUser, failingUser, randomUUID()], 5);
    expect([...targets.keys()].sort()).toEqual([healthyUser, failingUser].sort());
    expect(Object.fromEntries([...targets.values()].flat().map((t) => [t.subscription_id, t.failing]))).toEqual({ [healthy]: false, [failing]: true });
  });
});

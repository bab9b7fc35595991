import { randomUUID } from 'node:crypto';
import { AdminAlert, AlertPreferences } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';

const PHOENIX = { lat: 33.4484, lng: -112.074 };

jest.setTimeout(60_000);

/**
 * The alerts service refuses new endpoints off the push services and past the per-user cap, but rows stored
 * before those rules (or before an operator narrowed them) are still in the table: the dispatcher applies the same
 * rules when it sends, so no alert calls such an endpoint, and one refused keeps failing until it is retired.
 */
describe('the dispatcher pushes only where the push-endpoint rules allow', () => {
  const stack = new DispatchStack();
  const { push } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  const call = jsonClient(() => alerts.url);

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', PUSH_SUBSCRIPTIONS_PER_USER: '2', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
  });
  afterAll(() => stack.close(dispatcher, alerts));

  async function pushUser() {
    const id = randomUUID();
    const token = await stack.identity.token({ id, email: `user-${id.slice(0, 8)}@example.test` });
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      home: PHOENIX,
      radiusMiles: 25,
      methods: { push: true, sms: false, email: false, voice: true },
      phoneNumber: null,
    });
    expect(saved.status).toBe(200);
    return id;
  }

  /** A row as an older release (or a wider PUSH_ENDPOINT_HOSTS) stored it, past today's checks. */
  async function storedSubscription(userId: string, endpoint: string, registeredHoursAgo: number, keys = { p256dh: 'k', auth: 'a' }) {
    const [row] = await stack.db.query(
      `INSERT INTO alerts.push_subscriptions (user_id, endpoint, p256dh, auth, registered_at)
       VALUES ($1, $2, $3, $4, now() - make_interval(hours => $5)) RETURNING id`,
      [userId, endpoint, keys.p256dh, keys.auth, registeredHoursAgo],
    );
    return row.id as string;
  }

  async function sendAndSettle(title: string) {
    const res = await call<AdminAlert>(
      'POST',
      '',
      admin,
      {
        title,
        message: 'Evacuate the area now.',
        category: 'health',
        severity: 'high',
        lat: PHOENIX.lat,
        lng: PHOENIX.lng,
        radiusKm: 10,
        channels: ['push'],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(res.status).toBe(201);
    await waitFor(`alert ${res.body.id} to settle`, async () => {
      const got = await call<AdminAlert>('GET', `/${res.body.id}`, admin);
      return got.body.recipients !== null && got.body.deliveryLabel !== 'Pending' ? got.body : null;
    });
    return res.body.id;
  }

  const delivery = async (alertId: string, userId: string) =>
    (await stack.db.query(`SELECT status, attempts, error FROM alerts.alert_deliveries WHERE alert_id = $1 AND user_id = $2`, [alertId, userId]))[0];

  it('calls only the newest PUSH_SUBSCRIPTIONS_PER_USER endpoints of a user who has more', async () => {
    const userId = await pushUser();
    const subs = [push.subscribe(), push.subscribe(), push.subscribe()];
    // the oldest first: 3 h, 2 h and 1 h ago
    for (const [i, s] of subs.entries()) await storedSubscription(userId, s.json.endpoint, 3 - i, s.json.keys);
    const alertId = await sendAndSettle('Gas leak');
    expect(await delivery(alertId, userId)).toMatchObject({ status: 'sent' });
    expect(subs.map((s) => push.for(s.id).length)).toEqual([0, 1, 1]);
  });

  it('never calls an endpoint off the push services; it fails at once, counts towards retirement, and the user keeps the rest', async () => {
    const onlyRogue = await pushUser();
    // .invalid never resolves: nothing here reaches the network, whatever the dispatcher does
    const rogue = await storedSubscription(onlyRogue, 'https://push.victim.invalid/push/1', 1);
    const mixed = await pushUser();
    const good = push.subscribe();
    await storedSubscription(mixed, good.json.endpoint, 2, good.json.keys);
    const rogue2 = await storedSubscription(mixed, 'https://victim.invalid/hook', 1);

    const alertId = await sendAndSettle('Chemical spill');
    expect(await delivery(alertId, onlyRogue)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: expect.stringContaining('not on a push service browsers use'),
    });
    expect(await delivery(alertId, mixed)).toMatchObject({ status: 'sent' });
    expect(push.for(good.id)).toHaveLength(1);
    const rows = await stack.db.query(`SELECT id, failures FROM alerts.push_subscriptions WHERE id = ANY($1::uuid[]) ORDER BY failures, id`, [[rogue, rogue2]]);
    expect(rows.map((r: { failures: number }) => r.failures)).toEqual([1, 1]);
  });
});

import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { AdminAlert, AlertPreferences, JOB_QUEUE, JobName, queuePrefix } from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { dispatcherService } from './dispatcher.service';
import { DispatchStack } from './testing/dispatch-stack';
import { FakePushAnswer } from './testing/fake-push-service';
import { TcpProxy } from './testing/tcp-proxy';

const MESA = { lat: 33.4152, lng: -111.8315 };

/**
 * Nothing lost, nothing repeated, when what the dispatcher depends on fails: a provider down for longer than the
 * old retry budget, one of a user's two browsers failing, a channel turned off while its delivery was held, and
 * PostgreSQL dropping every connection mid fan-out (the dispatcher reaches it through a proxy the spec can cut).
 * Retries are scaled down (200 ms doubling to 1 s) so that the old policy, six attempts, would have given up
 * after about 3.4 s: each outage here lasts several times that.
 */
jest.setTimeout(120_000);

describe('delivery through failures', () => {
  const stack = new DispatchStack();
  const { redis, push, sms, smtp } = stack;
  const proxy = new TcpProxy({ host: '127.0.0.1', port: 5432 });
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  let place = 0;
  let phones = 0;

  beforeAll(async () => {
    await stack.start({ PUSH_BATCH_SIZE: '10', SMS_BATCH_SIZE: '4', EMAIL_BATCH_SIZE: '5', PUSH_REQUEST_CONCURRENCY: '4', SWEEP_INTERVAL_SECONDS: '3600' });
    await proxy.start();
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, {
      ...stack.vars,
      DATABASE_URL: proxy.via(stack.db.url),
      CHANNEL_RETRY_BASE_MS: '200',
      CHANNEL_RETRY_MAX_DELAY_SECONDS: '1',
    });
    admin = await stack.identity.token({ role: 'admin' });
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
    await proxy.close();
  });

  const call = jsonClient(() => alerts.url);

  /** A place of its own for each test, 30 km apart, so one test's alert never reaches another's users. */
  const newPlace = () => destination(MESA, 30 * ++place, 90);

  async function makeUser(
    home: { lat: number; lng: number },
    o: { push?: FakePushAnswer[][]; sms?: boolean; email?: boolean; frequency?: AlertPreferences['frequency'] },
  ) {
    const id = randomUUID();
    const email = `user-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const phone = o.sms ? `+1480666${String(++phones).padStart(4, '0')}` : null;
    const methods = { push: !!o.push, sms: !!o.sms, email: !!o.email };
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['emergency'],
      home,
      radiusMiles: 5,
      methods,
      phoneNumber: phone,
      ...(o.frequency ? { frequency: o.frequency } : {}),
    });
    expect(saved.status).toBe(200);
    const devices: string[] = [];
    for (const script of o.push ?? []) {
      const sub = push.subscribe(script);
      expect((await call('POST', '/me/push-subscriptions', token, sub.json)).status).toBe(201);
      devices.push(sub.id);
    }
    return { id, email, token, phone, devices, methods };
  }

  async function sendAlert(at: { lat: number; lng: number }, channels: string[], title: string) {
    const res = await call<AdminAlert>('POST', '', admin, {
      title,
      message: 'Stay clear of the area.',
      category: 'public_safety',
      severity: 'high',
      lat: at.lat,
      lng: at.lng,
      radiusKm: 10,
      channels,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  const rowsOf = (alertId: string) =>
    stack.db.query<{ id: string; user_id: string; channel: string; status: string; attempts: number; error: string | null }>(
      `SELECT id, user_id, channel, status, attempts, error FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id, channel`,
      [alertId],
    );

  const allSettled = (alertId: string, expected: number, timeoutMs = 60_000) =>
    waitFor(
      `the ${expected} deliveries of ${alertId} to settle`,
      async () => {
        const rows = await rowsOf(alertId);
        return rows.length === expected && rows.every((r) => !['pending', 'sending'].includes(r.status)) ? rows : null;
      },
      timeoutMs,
    );

  it('an SMS provider down five times longer than the old retry budget: every SMS goes out once it is back', async () => {
    const at = newPlace();
    const users = await Promise.all(Array.from({ length: 10 }, () => makeUser(at, { sms: true })));
    const downFor = 15_000;
    sms.downUntil = Date.now() + downFor;
    const alert = await sendAlert(at, ['sms'], 'Gas leak on Main Street');
    const rows = await allSettled(alert.id, users.length);

    expect(rows.map((r) => r.status)).toEqual(users.map(() => 'sent'));
    // Well past the six attempts the old policy allowed.
    expect(Math.max(...rows.map((r) => r.attempts))).toBeGreaterThan(6);
    const calls = sms.received.filter((c) => c.body.title === 'Gas leak on Main Street');
    expect(calls.some((c) => c.status === 503)).toBe(true);
    // Each phone in exactly one accepted call.
    const accepted = calls.filter((c) => c.status === 200).flatMap((c) => c.body.recipients);
    expect(accepted.sort()).toEqual(users.map((u) => u.phone).sort());
  });

  it('a user with two browsers, one failing twice: that one is retried alone, the other gets the alert once', async () => {
    const at = newPlace();
    const u = await makeUser(at, { push: [[], [503, 503]] });
    const [steady, flaky] = u.devices;
    const alert = await sendAlert(at, ['push'], 'Water main break');
    const [row] = await allSettled(alert.id, 1);

    expect(row).toMatchObject({ user_id: u.id, status: 'sent', attempts: 3, error: null });
    expect(push.for(steady).map((p) => p.status)).toEqual([201]);
    expect(push.for(flaky).map((p) => p.status)).toEqual([503, 503, 201]);
    expect(new Set([...push.for(steady), ...push.for(flaky)].map((p) => p.idempotencyKey))).toEqual(new Set([row.id]));
    // Both browsers are on record as having taken it (the steady one on the first attempt, the other on the third).
    const [stored] = await stack.db.query(`SELECT push_accepted FROM alerts.alert_deliveries WHERE id = $1`, [row.id]);
    const subscriptions = await stack.db.query<{ id: string }>(`SELECT id FROM alerts.push_subscriptions WHERE user_id = $1`, [u.id]);
    expect([...stored.push_accepted].sort()).toEqual(subscriptions.map((s) => s.id).sort());
  });

  it('channels turned off while their deliveries were held are not used when the digest comes due', async () => {
    const at = newPlace();
    const u = await makeUser(at, { push: [[]], sms: true, email: true, frequency: 'hourly' });
    const alert = await sendAlert(at, ['push', 'sms', 'email'], 'Power outage downtown');
    await waitFor('three held deliveries', async () => ((await rowsOf(alert.id)).filter((r) => r.status === 'pending').length === 3 ? true : null));

    // The user keeps push and turns SMS and e-mail off before the hour.
    expect((await call('PUT', '/me/preferences', u.token, { methods: { push: true, sms: false, email: false } })).status).toBe(200);
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE alert_id = $1`, [alert.id]);
    for (const name of [JobName.PushSend, JobName.SmsSend, JobName.EmailSend]) {
      const queue = new Queue(JOB_QUEUE[name], { connection: { url: redis.url } as never, prefix: queuePrefix(redis.prefix) });
      try {
        const jobs = await waitFor(`the held ${name} job`, async () => {
          const held = (await queue.getDelayed()).filter((j) => j.data.alertId === alert.id);
          return held.length ? held : null;
        });
        for (const job of jobs) await job.promote();
      } finally {
        await queue.close();
      }
    }
    const rows = await allSettled(alert.id, 3);

    expect(rows.map((r) => [r.channel, r.status, r.error])).toEqual([
      ['email', 'cancelled', 'the user turned e-mail alerts off'],
      ['push', 'sent', null],
      ['sms', 'cancelled', 'the user turned SMS alerts off'],
    ]);
    expect(sms.received.filter((c) => c.body.recipients.includes(u.phone!))).toEqual([]);
    expect(smtp.received.filter((m) => m.to.includes(u.email))).toEqual([]);
    expect(push.for(u.devices[0]).map((p) => p.status)).toEqual([201]);
  });

  it('PostgreSQL drops every connection mid fan-out: every push goes out, and none twice', async () => {
    const at = newPlace();
    const users = await Promise.all(Array.from({ length: 40 }, () => makeUser(at, { push: [[]] })));
    push.delayMs = 150; // keep the batches in flight long enough to be cut
    const alert = await sendAlert(at, ['push'], 'Wrong-way driver on US-60');
    const mine = () => push.received.filter((p) => p.payload?.alertId === alert.id);
    await waitFor('the fan-out to be under way', () => mine().length >= 8);

    proxy.cut();
    await new Promise((r) => setTimeout(r, 3000));
    proxy.restore();
    push.delayMs = 0;
    const rows = await allSettled(alert.id, users.length);

    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    const perDevice = new Map<string, number>();
    for (const p of mine()) perDevice.set(p.subscriptionId, (perDevice.get(p.subscriptionId) ?? 0) + 1);
    expect([...perDevice.keys()].sort()).toEqual(users.map((u) => u.devices[0]).sort());
    expect([...perDevice.values()].filter((n) => n > 1)).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { io, Socket } from 'socket.io-client';
import { AdminAlert, AlertAuditEntry, AlertOperations, AlertSummary, JOB_QUEUE, JobName, queuePrefix } from '@beacon/contracts';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { ProgressPublisher } from '../live/progress.publisher';
import { gatewayService } from '../../../gateway/src/service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';
import { SweepHandler } from './sweep.handler';

jest.setTimeout(60_000);

/** The sweep on real PostgreSQL and Redis: expiry, held deliveries cancelled, screens told, lost dispatches re-queued. */
describe('alert sweep', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let gateway: RunningService<unknown>;
  let adminToken: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // A long interval: the scheduler's own runs stay out of the way, and the test calls the handler itself.
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    gateway = await startTestService(gatewayService, stack.vars);
    adminToken = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack.close(gateway, dispatcher, alerts);
  });

  const call = jsonClient(() => alerts.url);

  function listen(token: string, updates: AlertSummary[]): Promise<Socket> {
    const s = io(gateway.origin, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(s);
    s.on('alert:updated', (a: AlertSummary) => updates.push(a));
    return new Promise((resolve, reject) => {
      s.on('connect', () => resolve(s));
      s.on('connect_error', reject);
    });
  }

  const deliveriesOf = (alertId: string) =>
    stack.db.query<{ user_id: string; status: string; error: string | null }>(
      `SELECT user_id, status, error FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alertId],
    );

  it('expires due alerts, cancels their held deliveries, tells admins and recipients, and re-queues a lost dispatch once', async () => {
    // Two SMS recipients: one reached at once, one held by quiet hours that last another hour.
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quietHours = { enabled: true, start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 3600_000)), timeZone: 'UTC' };
    const users = await Promise.all(
      [null, quietHours].map(async (quiet, i) => {
        const id = randomUUID();
        const token = await stack.identity.token({ id, email: `sweep-${i}@example.test` });
        const saved = await call('PUT', '/me/preferences', token, {
          alertTypes: ['weather'],
          methods: { push: false, sms: true, email: false },
          phoneNumber: `+1602555990${i}`,
          ...(quiet ? { quietHours: quiet } : {}),
        });
        expect(saved.status).toBe(200);
        return { id, token };
      }),
    );
    const [reached, held] = users;
    const adminUpdates: AlertSummary[] = [];
    const reachedUpdates: AlertSummary[] = [];
    const heldUpdates: AlertSummary[] = [];
    await listen(adminToken, adminUpdates);
    await listen(reached.token, reachedUpdates);
    await listen(held.token, heldUpdates);

    const post = await call<AdminAlert>('POST', '', adminToken, {
      title: 'Flash flood watch',
      message: 'Heavy rain upstream; washes may flood this evening.',
      category: 'weather',
      severity: 'medium',
      channels: ['sms'],
      everyone: true,
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(post.status).toBe(201);
    const alertId = post.body.id;
    await waitFor('the first SMS sent and the second held', async () => {
      const rows = await deliveriesOf(alertId);
      return rows.length === 2 &&
        rows.some((r) => r.user_id === reached.id && r.status === 'sent') &&
        rows.some((r) => r.user_id === held.id && r.status === 'pending')
        ? rows
        : null;
    });

    // The held delivery is counted apart from the pending ones, in the API's summary and in the progress event,
    // from its release time when read: once that passes it is pending and on its way, no longer held.
    expect((await call<AdminAlert>('GET', `/${alertId}`, adminToken)).body.summary.sms).toMatchObject({ sent: 1, pending: 1, held: 1 });
    expect((await dispatcher.app.get(ProgressPublisher).snapshot(alertId))?.channels.sms).toMatchObject({ sent: 1, pending: 1, held: 1 });
    const [{ not_before: releaseAt }] = await stack.db.query(`SELECT not_before FROM alerts.alert_deliveries WHERE alert_id = $1 AND user_id = $2`, [
      alertId,
      held.id,
    ]);
    // The operations view says when the held one goes out.
    const ops = (await call<AlertOperations>('GET', `/${alertId}/operations`, adminToken)).body;
    expect(ops.channels.sms).toMatchObject({ held: 1, heldUntil: new Date(releaseAt).toISOString() });
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() - interval '1 second' WHERE alert_id = $1 AND user_id = $2`, [
      alertId,
      held.id,
    ]);
    expect((await call<AdminAlert>('GET', `/${alertId}`, adminToken)).body.summary.sms).toMatchObject({ pending: 1, held: 0 });
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = $3 WHERE alert_id = $1 AND user_id = $2`, [alertId, held.id, releaseAt]);

    // An alert stored active whose dispatch job was lost (the process died between commit and enqueue), a minute ago,
    // and one stored just now, whose enqueue may still be on its way.
    const insert = (age: string) =>
      stack.db
        .query<{ id: string }>(
          `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at)
       VALUES ('Lost dispatch', 'Dispatched by the sweep.', 'Weather', 'medium', 'weather', '{sms}', 'active', now() - $1::interval) RETURNING id`,
          [age],
        )
        .then(([r]) => r.id);
    const lost = await insert('2 minutes');
    const recent = await insert('0 seconds');

    // The first alert's expiry arrives.
    await stack.db.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 second' WHERE id = $1`, [alertId]);
    const sweep = dispatcher.app.get(SweepHandler);
    expect(await sweep.sweep()).toEqual({ expired: 1, requeued: 1, redriven: 0, settled: 0, reminded: 0 });

    const [stored] = await stack.db.query(`SELECT status FROM alerts.alerts WHERE id = $1`, [alertId]);
    expect(stored.status).toBe('expired');
    const rows = await deliveriesOf(alertId);
    expect(rows.find((r) => r.user_id === reached.id)).toMatchObject({ status: 'sent', error: null });
    expect(rows.find((r) => r.user_id === held.id)).toMatchObject({ status: 'cancelled', error: 'alert expired' });
    expect((await call<AdminAlert>('GET', `/${alertId}`, adminToken)).body.summary.sms).toMatchObject({ sent: 1, pending: 0, held: 0, cancelled: 1 });

    for (const [who, updates] of [
      ['admins', adminUpdates],
      ['the reached user', reachedUpdates],
      ['the held user', heldUpdates],
    ] as const) {
      const update = await waitFor(`alert:updated for ${who}`, () => updates.find((u) => u.id === alertId));
      expect(update.status).toBe('expired');
    }

    // The lost dispatch ran: its recipients have their deliveries; the recent one was left to its own enqueue.
    await waitFor('the lost alert dispatched', async () => {
      const [a] = await stack.db.query(`SELECT dispatched_at, recipients FROM alerts.alerts WHERE id = $1`, [lost]);
      return a.dispatched_at ? a : null;
    });
    expect((await deliveriesOf(lost)).map((r) => r.user_id).sort()).toEqual([reached.id, held.id].sort());
    const [young] = await stack.db.query(`SELECT dispatched_at FROM alerts.alerts WHERE id = $1`, [recent]);
    expect(young.dispatched_at).toBeNull();

    // A second sweep finds nothing more to do, and tells nobody again.
    const told = adminUpdates.length + reachedUpdates.length + heldUpdates.length;
    expect(await sweep.sweep()).toEqual({ expired: 0, requeued: 0, redriven: 0, settled: 0, reminded: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(adminUpdates.length + reachedUpdates.length + heldUpdates.length).toBe(told);
  });

  it('tells every user an alert concerns that it was cancelled or expired, reached by a channel or not, and nobody else', async () => {
    const user = async (name: string, prefs: Record<string, unknown>) => {
      const id = randomUUID();
      const token = await stack.identity.token({ id, email: `end-${name}-${id.slice(0, 6)}@example.test` });
      const saved = await call('PUT', '/me/preferences', token, prefs);
      expect(saved.status).toBe(200);
      const updates: AlertSummary[] = [];
      await listen(token, updates);
      return { id, token, updates };
    };
    // Push on but no browser subscribed, no SMS or email: no delivery row can reach them, the open screen does.
    const channelless = await user('channelless', { alertTypes: ['weather'], methods: { push: true, sms: false, email: false } });
    const texted = await user('texted', { alertTypes: ['weather'], methods: { push: false, sms: true, email: false }, phoneNumber: '+16025559911' });
    const otherTopic = await user('other', { alertTypes: ['traffic'], methods: { push: true, sms: false, email: false } });

    const send = async (title: string, expiresAt?: string) => {
      const post = await call<AdminAlert>('POST', '', adminToken, {
        title,
        message: 'Strong winds this evening; secure loose objects.',
        category: 'weather',
        severity: 'medium',
        channels: ['sms'],
        everyone: true,
        ...(expiresAt ? { expiresAt } : {}),
      });
      expect(post.status).toBe(201);
      await waitFor(`${title}: the SMS sent`, async () =>
        (await deliveriesOf(post.body.id)).some((r) => r.user_id === texted.id && r.status === 'sent') ? true : null,
      );
      return post.body.id;
    };
    const heard = (u: { updates: AlertSummary[] }, alertId: string) => u.updates.filter((a) => a.id === alertId);

    // Cancelled: after the dispatch the texted user turns weather off; their delivery row still makes it theirs.
    const cancelledId = await send('Wind advisory');
    expect((await call('PUT', '/me/preferences', texted.token, { alertTypes: ['traffic'] })).status).toBe(200);
    expect((await call('POST', `/${cancelledId}/cancel`, adminToken)).status).toBe(200);
    for (const u of [channelless, texted]) expect((await waitFor('alert:updated (cancelled)', () => heard(u, cancelledId)[0])).status).toBe('cancelled');
    expect((await call('PUT', '/me/preferences', texted.token, { alertTypes: ['weather'] })).status).toBe(200);

    // Expired by the sweep.
    const expiringId = await send('Wind warning', new Date(Date.now() + 3600_000).toISOString());
    await stack.db.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiringId]);
    expect(await dispatcher.app.get(SweepHandler).sweep()).toMatchObject({ expired: 1 });
    for (const u of [channelless, texted]) expect((await waitFor('alert:updated (expired)', () => heard(u, expiringId)[0])).status).toBe('expired');

    // Each once; the user the alerts do not concern hears of neither (the admins' own update has come by now).
    await new Promise((r) => setTimeout(r, 300));
    for (const u of [channelless, texted]) expect([heard(u, cancelledId).length, heard(u, expiringId).length]).toEqual([1, 1]);
    expect(otherTopic.updates.filter((a) => a.id === cancelledId || a.id === expiringId)).toEqual([]);
  });

  it('reminds, once, whoever an alert reached and has not answered, when its escalation is due; not those who answered', async () => {
    const users = await Promise.all(
      ['safe', 'help', 'silent'].map(async (name, i) => {
        const id = randomUUID();
        const token = await stack.identity.token({ id, email: `remind-${name}@example.test` });
        const phone = `+1602555980${i}`;
        expect(
          (await call('PUT', '/me/preferences', token, { alertTypes: ['traffic'], methods: { push: false, sms: true, email: false }, phoneNumber: phone }))
            .status,
        ).toBe(200);
        return { id, token, phone };
      }),
    );
    const [safe, help, silent] = users;
    const refused = await call('POST', '', adminToken, {
      title: 'Wrong-way driver',
      message: 'A driver is going the wrong way on I-10 near Exit 257.',
      category: 'traffic',
      severity: 'critical',
      channels: ['sms'],
      everyone: true,
      remindAfterMinutes: 2,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Reminder delay must be a whole number of minutes from 5 to 1440');

    const post = await call<AdminAlert>('POST', '', adminToken, {
      title: 'Wrong-way driver',
      message: 'A driver is going the wrong way on I-10 near Exit 257.',
      category: 'traffic',
      severity: 'critical',
      channels: ['sms'],
      everyone: true,
      remindAfterMinutes: 10,
    });
    expect(post.status).toBe(201);
    const alertId = post.body.id;
    await waitFor('the three SMS sent', async () => {
      const rows = await deliveriesOf(alertId);
      return rows.length === 3 && rows.every((r) => r.status === 'sent') ? rows : null;
    });
    expect((await call('POST', `/me/alerts/${alertId}/read`, safe.token)).status).toBe(200);
    expect((await call('POST', `/me/alerts/${alertId}/help`, help.token, { message: 'Stuck on the shoulder' })).status).toBe(201);
    const shown = (await call<AdminAlert>('GET', `/${alertId}`, adminToken)).body.reminder!;
    expect(shown).toMatchObject({ afterMinutes: 10, sentAt: null, deliveries: null });
    expect(Date.parse(shown.dueAt!) - Date.now()).toBeGreaterThan(8 * 60_000);

    // Not due yet: nothing happens.
    const sweep = dispatcher.app.get(SweepHandler);
    expect(await sweep.sweep()).toMatchObject({ reminded: 0 });
    // Ten minutes later (the dispatch moved back in time), the sweep reminds the one who did not answer, once.
    await stack.db.query(`UPDATE alerts.alerts SET dispatched_at = now() - interval '11 minutes' WHERE id = $1`, [alertId]);
    const before = stack.sms.received.length;
    expect(await sweep.sweep()).toMatchObject({ reminded: 1 });
    expect(await sweep.sweep()).toMatchObject({ reminded: 0 });
    const reminder = await waitFor('the reminder sent', async () => {
      const [row] = await stack.db.query<{ user_id: string; status: string; round: number }>(
        `SELECT user_id, status, round FROM alerts.alert_deliveries WHERE alert_id = $1 AND round = 1`,
        [alertId],
      );
      return row?.status === 'sent' ? row : null;
    });
    expect(reminder.user_id).toBe(silent.id);
    // Only this alert's texts: the earlier cases' cancel and expiry notices may still be arriving.
    const phones = new Set(users.map((u) => u.phone));
    const texts = stack.sms.received.slice(before).filter((c) => c.status === 200 && c.body.recipients.some((p: string) => phones.has(p)));
    expect(texts.flatMap((c) => c.body.recipients)).toEqual([silent.phone]);
    expect(texts[0].body.title).toBe('Reminder: Wrong-way driver');
    expect((await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1`, [alertId]))[0].n).toBe(4);

    const after = (await call<AdminAlert>('GET', `/${alertId}`, adminToken)).body;
    expect(after.reminder).toMatchObject({ afterMinutes: 10, deliveries: 1, sentAt: expect.any(String) });
    expect(after.recipients).toBe(3); // a reminder is a delivery, not a new recipient
    const audit = (await call<AlertAuditEntry[]>('GET', `/${alertId}/audit`, adminToken)).body;
    expect(audit.find((e) => e.action === 'reminded')).toMatchObject({ actorId: null, details: { people: 1, deliveries: 1 } });
  });

  it('keeps one sweep scheduler in Redis at the configured interval', async () => {
    const queue = new Queue(JOB_QUEUE[JobName.AlertExpire], { connection: { url: stack.redis.url } as never, prefix: queuePrefix(stack.redis.prefix) });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => [s.key, Number(s.every)])).toEqual([['alert-sweep', 3600_000]]);
    } finally {
      await queue.close();
    }
  });
});

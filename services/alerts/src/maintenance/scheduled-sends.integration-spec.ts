import { randomUUID } from 'node:crypto';
import { io, Socket } from 'socket.io-client';
import { AdminAlert, AlertAuditEntry, AlertSummary } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { gatewayService } from '../../../gateway/src/service';
import { DispatchStack } from '../testing/dispatch-stack';
import { SweepHandler } from './sweep.handler';

jest.setTimeout(120_000);

const TEMPE = { lat: 33.4255, lng: -111.94 };
const HOUR = 3600_000;

/**
 * Scheduled sends (issue 38) on the API and the dispatcher over real PostgreSQL and Redis: a send stored for later goes
 * out when the sweep finds it due, once however many sweeps run, after the processes restarted, and never when it was
 * cancelled or expired first. The time is moved into the past in the database: the clock is the database's.
 */
describe('scheduled sends', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let gateway: RunningService<unknown>;
  const sockets: Socket[] = [];
  let publisher: string;
  let publisherId: string;
  const call = jsonClient(() => alerts.url);

  beforeAll(async () => {
    // A long interval: the scheduler's own runs stay out of the way, and the test calls the sweep itself.
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    gateway = await startTestService(gatewayService, stack.vars);
    publisherId = randomUUID();
    publisher = await stack.identity.token({ id: publisherId, email: 'scheduler@beacon.local', role: 'publisher' });
    // one person in Tempe, reached by SMS
    const token = await stack.identity.token({ id: randomUUID(), email: 'resident@example.test' });
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['weather'],
      severityThreshold: 'low',
      home: TEMPE,
      radiusMiles: 25,
      methods: { push: false, sms: true, email: false },
      phoneNumber: '+16025550188',
    });
    expect(saved.status).toBe(200);
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack.close(gateway, dispatcher, alerts);
  });

  const body = (title: string, extra: Record<string, unknown> = {}) => ({
    title,
    message: 'Sandbags are available at the fire station on Rural Road.',
    category: 'weather',
    severity: 'medium',
    channels: ['sms'],
    lat: TEMPE.lat,
    lng: TEMPE.lng,
    radiusKm: 5,
    ...extra,
  });
  const inAnHour = () => new Date(Date.now() + HOUR).toISOString();
  const schedule = async (title: string, extra: Record<string, unknown> = {}) => {
    const sendAt = inAnHour();
    const res = await call<AdminAlert>('POST', '', publisher, body(title, { sendAt, ...extra }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'scheduled', sendAt, sentAt: null });
    return res.body;
  };
  /** The clock moved on to its send time. */
  const comeDue = (id: string) => stack.db.query(`UPDATE alerts.alerts SET send_at = now() - interval '1 second' WHERE id = $1`, [id]);
  const sweep = () => dispatcher.app.get(SweepHandler).sweep();
  const smsWith = (title: string) => stack.sms.received.filter((m) => m.body.title === title);
  const deliveries = (id: string) => stack.db.query(`SELECT status FROM alerts.alert_deliveries WHERE alert_id = $1`, [id]);
  const trail = async (id: string) => (await call<AlertAuditEntry[]>('GET', `/${id}/audit`, publisher)).body;
  const get = async (id: string) => (await call<AdminAlert>('GET', `/${id}`, publisher)).body;

  it('waits for its time, then goes out once, however many sweeps claim it at the same time', async () => {
    const title = 'Sandbag distribution tonight';
    const alert = await schedule(title);
    const scheduled = (await trail(alert.id)).find((e) => e.action === 'scheduled');
    expect(scheduled).toMatchObject({ actorId: publisherId, details: { sendAt: alert.sendAt } });

    // not yet due: the sweep leaves it alone
    await sweep();
    expect((await get(alert.id)).status).toBe('scheduled');
    expect(await deliveries(alert.id)).toHaveLength(0);

    await comeDue(alert.id);
    await Promise.all([sweep(), sweep(), sweep()]);
    await waitFor('the SMS sent', async () => ((await deliveries(alert.id)).some((d) => d.status === 'sent') ? true : null));
    await sweep();
    const sent = await get(alert.id);
    expect(sent).toMatchObject({ status: 'active', sendAt: null });
    expect(sent.sentAt).not.toBeNull();
    expect(await deliveries(alert.id)).toHaveLength(1);
    expect(smsWith(title)).toHaveLength(1);
    const sends = (await trail(alert.id)).filter((e) => e.action === 'sent');
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ actorId: null, details: { scheduledFor: expect.any(String) } });
  });

  it('survives a restart of the API and the dispatcher: the database holds the schedule', async () => {
    const title = 'Road closure at dawn';
    const alert = await schedule(title);
    await dispatcher.close();
    await alerts.close();
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    expect((await get(alert.id)).status).toBe('scheduled');
    await comeDue(alert.id);
    await sweep();
    await waitFor('the SMS sent', async () => ((await deliveries(alert.id)).some((d) => d.status === 'sent') ? true : null));
    await sweep();
    expect(smsWith(title)).toHaveLength(1);
    expect((await get(alert.id)).status).toBe('active');
  });

  it('never goes out once cancelled, nor after its expiry', async () => {
    const cancelledTitle = 'Cancelled before its time';
    const cancelled = await schedule(cancelledTitle);
    const res = await call<AdminAlert>('POST', `/${cancelled.id}/cancel`, publisher);
    expect([res.status, res.body.status]).toEqual([200, 'cancelled']);
    await comeDue(cancelled.id);

    const expiredTitle = 'Expired before its time';
    const expired = await schedule(expiredTitle, { expiresAt: new Date(Date.now() + 2 * HOUR).toISOString() });
    await stack.db.query(`UPDATE alerts.alerts SET send_at = now() - interval '2 seconds', expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.id,
    ]);

    await sweep();
    await sweep();
    expect((await get(cancelled.id)).status).toBe('cancelled');
    expect((await get(expired.id)).status).toBe('expired');
    for (const a of [cancelled, expired]) {
      expect(await deliveries(a.id)).toHaveLength(0);
      expect(await stack.db.query(`SELECT 1 FROM alerts.dispatch_outbox WHERE alert_id = $1`, [a.id])).toHaveLength(0);
      expect((await trail(a.id)).map((e) => e.action)).not.toContain('sent');
    }
    // a cancelled one cannot be cancelled again, nor sent
    expect((await call('POST', `/${cancelled.id}/send`, publisher, {})).status).toBe(409);
    expect(smsWith(cancelledTitle)).toHaveLength(0);
    expect(smsWith(expiredTitle)).toHaveLength(0);
  });

  it("schedules a draft's send, which then goes out like any other", async () => {
    const title = 'Drafted, then scheduled';
    const draft = await call<AdminAlert>('POST', '', publisher, body(title, { draft: true }));
    expect(draft.status).toBe(201);
    const sendAt = inAnHour();
    const scheduled = await call<AdminAlert>('POST', `/${draft.body.id}/send`, publisher, { sendAt });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ status: 'scheduled', sendAt, sentAt: null });
    // sending it again is refused: it is no longer a draft
    const again = await call('POST', `/${draft.body.id}/send`, publisher, {});
    expect([again.status, again.body.code]).toEqual([409, 'invalid_alert_status']);
    await comeDue(draft.body.id);
    await sweep();
    await waitFor('the SMS sent', async () => ((await deliveries(draft.body.id)).some((d) => d.status === 'sent') ? true : null));
    expect(smsWith(title)).toHaveLength(1);
  });

  it('refuses a send time in the past, too far ahead, after the expiry, on a draft, or not a time with its offset, with its code', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const tooFar = new Date(Date.now() + 31 * 24 * HOUR).toISOString();
    const cases: [Record<string, unknown>, string][] = [
      [{ sendAt: past }, 'send_at_in_past'],
      [{ sendAt: tooFar }, 'send_at_too_far'],
      [{ sendAt: inAnHour(), expiresAt: new Date(Date.now() + HOUR / 2).toISOString() }, 'send_at_after_expiry'],
      [{ sendAt: inAnHour(), draft: true }, 'send_at_with_draft'],
      [{ sendAt: 'tomorrow at noon' }, 'validation_failed'],
      // no offset: whose 10 o'clock? And a day February does not have.
      [{ sendAt: inAnHour().slice(0, 19) }, 'validation_failed'],
      [{ sendAt: `${new Date().getUTCFullYear() + 1}-02-30T10:00:00Z` }, 'validation_failed'],
    ];
    for (const [extra, code] of cases) {
      const res = await call('POST', '', publisher, body('Refused', extra));
      expect([res.status, res.body.code, extra]).toEqual([400, code, extra]);
    }
    const draft = await call<AdminAlert>('POST', '', publisher, body('A draft', { draft: true }));
    for (const [sendAt, code] of [
      [past, 'send_at_in_past'],
      [tooFar, 'send_at_too_far'],
    ]) {
      const res = await call('POST', `/${draft.body.id}/send`, publisher, { sendAt });
      expect([res.status, res.body.code]).toEqual([400, code]);
    }
    expect((await get(draft.body.id)).status).toBe('draft');
    expect((await call<AdminAlert[]>('GET', '/recent?limit=50', publisher)).body.filter((a) => a.title === 'Refused')).toHaveLength(0);
  });

  it('tells the open consoles live: held for approval, approved for its time, gone out at it', async () => {
    const admin = await stack.identity.token({ id: randomUUID(), email: 'console@beacon.local', role: 'admin' });
    const approver = await stack.identity.token({ id: randomUUID(), email: 'approver@beacon.local', role: 'approver' });
    const seen: [string, AlertSummary][] = [];
    const socket = io(gateway.origin, { path: '/socket.io', auth: { token: admin }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    socket.on('alert:new', (a: AlertSummary) => seen.push(['new', a]));
    socket.on('alert:updated', (a: AlertSummary) => seen.push(['updated', a]));
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    expect((await call('PUT', '/admin/settings/approval', admin, { mode: 'all' })).status).toBe(200);
    try {
      const title = 'Approved for later';
      const sendAt = inAnHour();
      const held = await call<AdminAlert>('POST', '', publisher, body(title, { sendAt }));
      expect(held.status).toBe(202);
      expect(held.body).toMatchObject({ status: 'pending_approval', sendAt });
      const id = held.body.id;
      const told = (kind: string, status: string) =>
        waitFor(`alert:${kind} ${status}`, () => seen.find(([k, a]) => k === kind && a.id === id && a.status === status) ?? null);
      await told('new', 'pending_approval');

      const approved = await call<AdminAlert>('POST', `/${id}/approve`, approver, {});
      expect([approved.status, approved.body.status]).toEqual([200, 'scheduled']);
      await told('updated', 'scheduled');

      await comeDue(id);
      await sweep();
      await told('updated', 'active');
      await waitFor('the SMS sent', async () => ((await deliveries(id)).some((d) => d.status === 'sent') ? true : null));
      expect(smsWith(title)).toHaveLength(1);
    } finally {
      await call('PUT', '/admin/settings/approval', admin, { mode: 'off' });
    }
  });
});

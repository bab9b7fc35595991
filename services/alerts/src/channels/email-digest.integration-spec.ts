import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { AdminAlert, AlertAudience, AlertPreferences, JOB_QUEUE, JobName, queuePrefix } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';

jest.setTimeout(90_000);

const GLOBE = { lat: 33.3942, lng: -110.7865 };

interface Row {
  user_id: string;
  alert_id: string;
  channel: string;
  status: string;
  not_before: Date | null;
  merged_into: string | null;
  /** not_before as Phoenix reads it (UTC-7 all year, a whole-hour offset), 'HH24:MI'. */
  local: string | null;
  /** not_before is the first full hour after the row was written. */
  next_hour: boolean;
}

/**
 * Issue #40, "Email digest" does what its label says (EMAIL_DIGEST_FREQUENCY): an e-mail of an alert below critical is
 * held to the next full hour for a person whose frequency is Immediate (their own digest slot otherwise), and the
 * e-mails that come due together go as one digest; their push goes at once; a critical alert's e-mail goes at once.
 */
describe('the e-mail digest (alerts service + dispatcher on PostgreSQL and Redis)', () => {
  const stack = new DispatchStack();
  const { push, smtp, redis } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'digest-admin@beacon.local', role: 'admin' });
  });

  afterAll(() => stack.close(dispatcher, alerts));

  const call = jsonClient(() => alerts.url);

  async function person(frequency: AlertPreferences['frequency'], { home = GLOBE, withPush = true } = {}) {
    const id = randomUUID();
    const email = `digest-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['weather'],
      severityThreshold: 'low',
      home,
      radiusMiles: 25,
      frequency,
      methods: { push: withPush, sms: false, email: true, voice: false },
      quietHours: { enabled: false, timeZone: 'America/Phoenix' },
    });
    expect(saved.status).toBe(200);
    const sub = push.subscribe();
    if (withPush) expect((await call('POST', '/me/push-subscriptions', token, sub.json)).status).toBe(201);
    return { id, email, subscriptionId: sub.id };
  }

  it('is what the audience preview counts: e-mails later, and a person later when only an e-mail reaches them', async () => {
    const SHOW_LOW = { lat: 34.2542, lng: -110.0298 };
    await person('immediate', { home: SHOW_LOW });
    await person('daily', { home: SHOW_LOW });
    await person('immediate', { home: SHOW_LOW, withPush: false });
    const preview = async (severity: string) => {
      const res = await call<AlertAudience>('POST', '/audience', admin, {
        title: 'Blowing dust on SR-260',
        message: 'Visibility drops quickly; slow down.',
        category: 'weather',
        severity,
        lat: SHOW_LOW.lat,
        lng: SHOW_LOW.lng,
        radiusKm: 10,
        channels: ['push', 'email'],
      });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect(await preview('high')).toMatchObject({
      recipients: 3,
      // the daily person, and the one only an e-mail reaches
      held: 2,
      channels: { push: { recipients: 2, held: 1 }, email: { recipients: 3, held: 3 } },
    });
    expect(await preview('critical')).toMatchObject({
      recipients: 3,
      held: 0,
      channels: { push: { recipients: 2, held: 0 }, email: { recipients: 3, held: 0 } },
    });
  });

  async function send(title: string, severity: string): Promise<AdminAlert> {
    const res = await call<AdminAlert>('POST', '', admin, {
      title,
      message: `${title}: details inside.`,
      category: 'weather',
      severity,
      lat: GLOBE.lat,
      lng: GLOBE.lng,
      radiusKm: 10,
      channels: ['push', 'email'],
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  const rows = (userIds: string[]) =>
    stack.db.query<Row>(
      `SELECT user_id, alert_id, channel, status, not_before, merged_into,
              to_char(not_before AT TIME ZONE 'America/Phoenix', 'HH24:MI') AS local,
              not_before = date_trunc('hour', created_at) + interval '1 hour' AS next_hour
       FROM alerts.alert_deliveries WHERE user_id = ANY($1::uuid[]) ORDER BY created_at, channel`,
      [userIds],
    );
  const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

  it('holds an immediate person’s e-mails to the next hour and sends those due together as one; their push goes at once', async () => {
    const now = await person('immediate');
    const daily = await person('daily');
    const storm = await send('Severe thunderstorm warning', 'high');
    const wind = await send('Wind advisory', 'medium');
    const mine = (r: Row[], userId: string, channel: string) => r.filter((d) => d.user_id === userId && d.channel === channel);

    // Their push arrived at once, for both alerts; their e-mails wait.
    await waitFor('the immediate person’s two pushes', () => (push.for(now.subscriptionId).filter((p) => p.status === 201).length === 2 ? true : null));
    const held = await waitFor('the e-mails written, held', async () => {
      const r = await rows([now.id, daily.id]);
      return mine(r, now.id, 'email').length === 2 && mine(r, daily.id, 'email').length === 2 ? r : null;
    });
    for (const d of mine(held, now.id, 'push')) expect(d).toMatchObject({ status: 'sent', not_before: null });
    for (const d of mine(held, now.id, 'email')) expect(d).toMatchObject({ status: 'pending', next_hour: true });
    // A daily person's e-mails (and push) wait for their own digest, at 08:00.
    for (const d of [...mine(held, daily.id, 'email'), ...mine(held, daily.id, 'push')]) expect(d).toMatchObject({ status: 'pending', local: '08:00' });
    expect(mailsTo(now.email)).toEqual([]);

    // The hour comes: both e-mails come due together, and go as one digest.
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE user_id = $1 AND channel = 'email'`, [now.id]);
    const queue = new Queue(JOB_QUEUE[JobName.EmailSend], { connection: { url: redis.url } as never, prefix: queuePrefix(redis.prefix) });
    try {
      // (the daily person's e-mails are batches of their own, released at 08:00)
      const ids = (await stack.db.query<{ id: string }>(`SELECT id FROM alerts.alert_deliveries WHERE user_id = $1 AND channel = 'email'`, [now.id])).map(
        (r) => r.id,
      );
      const jobs = await waitFor('the two held e-mail jobs', async () => {
        const delayed = (await queue.getDelayed()).filter((j) => (j.data.deliveryIds as string[]).some((id) => ids.includes(id)));
        return delayed.length === 2 ? delayed : null;
      });
      expect(jobs.map((j) => j.data.alertId).sort()).toEqual([storm.id, wind.id].sort());
      for (const job of jobs) {
        expect(job.data.held).toBe(true);
        await job.promote();
      }
    } finally {
      await queue.close();
    }
    const sent = await waitFor('the digest sent', async () => {
      const r = mine(await rows([now.id]), now.id, 'email');
      return r.every((d) => d.status === 'sent') ? r : null;
    });
    expect(sent.filter((d) => d.merged_into === null)).toHaveLength(1);
    const mails = mailsTo(now.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('[High] 2 alerts in your area');
    expect(mails[0].raw).toContain('Severe thunderstorm warning');
    expect(mails[0].raw).toContain('Wind advisory');
  });

  it('sends a critical alert’s e-mail at once, whatever the frequency', async () => {
    const now = await person('immediate');
    const hourly = await person('hourly');
    const tornado = await send('Tornado warning', 'critical');
    await waitFor('both critical e-mails sent', () => (mailsTo(now.email).length === 1 && mailsTo(hourly.email).length === 1 ? true : null));
    for (const u of [now, hourly]) expect(mailsTo(u.email)[0].raw).toContain('Tornado warning');
    // The provider has the message before the worker records its answer: wait for the rows, not the inbox.
    const r = await waitFor('the critical rows settled', async () => {
      const settled = (await rows([now.id, hourly.id])).filter((d) => d.alert_id === tornado.id);
      return settled.length === 4 && settled.every((d) => d.status === 'sent') ? settled : null;
    });
    expect(r.map((d) => [d.channel, d.status, d.not_before]).sort()).toEqual([
      ['email', 'sent', null],
      ['email', 'sent', null],
      ['push', 'sent', null],
      ['push', 'sent', null],
    ]);
  });
});

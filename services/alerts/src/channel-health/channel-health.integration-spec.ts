import { randomBytes, randomUUID } from 'node:crypto';
import type { ChannelHealth, ChannelHealthReport, DeliveryChannel } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

const SMS_WEBHOOK = 'http://127.0.0.1:9/sms';

/**
 * Issue #39, provider health: per channel, its provider, whether it is configured (and why not, in the audience
 * preview's words), whether it sends receipts, its last Test Connection and last send error, the receipts of the last
 * hour, whom it can reach now (by the dispatcher's own rule: a browser for push, not a STOPped number for SMS) and the
 * numbers that replied STOP. Counted here from rows written by hand, so every figure is known.
 */
describe('provider health', () => {
  const api = new AlertsApi();
  const db = () => api.db;
  let admin: string;
  const sid = `AC${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    // the SMS webhook allow-listed, so that it is configured; the environment's mail relay (loopback) is refused
    await api.start({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1:9', SMS_WEBHOOK_URL: SMS_WEBHOOK });
    admin = await api.admin();

    // numbers that replied STOP: one of them a person's (the trigger marks them sms_stopped), one nobody's now
    await db().query(`INSERT INTO alerts.sms_opt_outs (phone_number) VALUES ('+16025550002'), ('+16025550099')`);
    const person = (o: { push?: boolean; sms?: boolean; email?: boolean; voice?: boolean; phone?: string; subscribed?: boolean }) => {
      const id = randomUUID();
      return db()
        .query(
          `INSERT INTO alerts.user_preferences (user_id, email, alert_types, categories, push_enabled, sms_enabled, email_enabled, voice_enabled,
             phone_number, radius_km)
           VALUES ($1, $2, '{weather}', '{weather}', $3, $4, $5, $6, $7, 10)`,
          [id, `${id.slice(0, 8)}@example.test`, !!o.push, !!o.sms, !!o.email, !!o.voice, o.phone ?? null],
        )
        .then(() =>
          o.subscribed
            ? db().query(`INSERT INTO alerts.push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, 'k', 'a')`, [
                id,
                `https://fcm.googleapis.com/fcm/send/${id}`,
              ])
            : null,
        );
    };
    await person({ push: true, subscribed: true }); // push
    await person({ push: true, subscribed: true, email: true }); // push, e-mail
    await person({ push: true }); // push on, no browser: not reachable by push
    await person({ sms: true, voice: true, phone: '+16025550001' }); // SMS, voice
    await person({ sms: true, voice: true, phone: '+16025550002' }); // replied STOP: voice only
    await person({ sms: true, phone: '+16025550003' }); // SMS
    await person({ voice: true }); // voice on, no number: nothing
    await person({ email: true }); // e-mail

    const [{ id: alertId }] = await db().query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at)
       VALUES ('Flash flood', 'Move to higher ground.', 'weather', 'high', 'weather', '{sms,email,voice}', 'active', now()) RETURNING id`,
    );
    const delivery = (channel: DeliveryChannel, receipt: string | null, agoMinutes: number | null) =>
      db().query(
        `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status, sent_at, receipt, receipt_at)
         VALUES ($1, $2, $3, 'sent', now(), $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() - make_interval(mins => $5::int) END)`,
        [alertId, randomUUID(), channel, receipt, agoMinutes],
      );
    await delivery('sms', 'delivered', 5);
    await delivery('sms', 'undelivered', 50);
    await delivery('sms', 'delivered', 90); // more than an hour ago
    await delivery('sms', null, null);
    await delivery('email', 'bounced', 10);
    await delivery('voice', 'answered', 1);
    await delivery('voice', 'no_answer', 59);
    await delivery('push', null, null);

    await db().query(
      `INSERT INTO alerts.channel_health (channel, last_test_at, last_test_ok, last_test_message, last_error_at, last_error) VALUES
         ('voice', '2026-01-02T03:04:05Z', true, 'Twilio connection successful: account Ops is active', NULL, NULL),
         ('sms', NULL, NULL, NULL, '2026-01-02T04:00:00Z', 'Twilio error 21211: The ''To'' number [number] is not a valid phone number. (HTTP 400)')`,
    );
  });

  afterAll(() => api.close());

  const report = async (token: string) => {
    const res = await api.call<ChannelHealthReport>('GET', '/admin/channel-health', token);
    expect(res.status).toBe(200);
    return Object.fromEntries(res.body.channels.map((c) => [c.channel, c])) as Record<DeliveryChannel, ChannelHealth>;
  };

  it('is for staff: a viewer reads it, a member of the public may not', async () => {
    const viewer = await api.identity.token({ role: 'viewer', email: 'viewer@beacon.local' });
    const user = await api.identity.token({ email: 'someone@example.test' });
    expect((await api.call('GET', '/admin/channel-health', user)).status).toBe(403);
    expect((await api.call('GET', '/admin/channel-health', null)).status).toBe(401);
    const channels = await report(viewer);
    expect(Object.keys(channels)).toEqual(['push', 'sms', 'email', 'voice']);
  });

  it('counts receipts of the last hour, whom each channel reaches now, and the numbers that replied STOP', async () => {
    const c = await report(admin);
    expect(c.push).toMatchObject({ receiptsLastHour: 0, reachableNow: 2 });
    expect(c.sms).toMatchObject({ receiptsLastHour: 2, reachableNow: 2, stoppedNumbers: 2 });
    expect(c.email).toMatchObject({ receiptsLastHour: 1, reachableNow: 2 });
    expect(c.voice).toMatchObject({ receiptsLastHour: 2, reachableNow: 2 });
    expect(c.push.stoppedNumbers).toBeUndefined();
  });

  it('says each provider, whether it is configured and why not, whether it sends receipts, its last test and last error', async () => {
    let c = await report(admin);
    expect(c.push).toMatchObject({ provider: 'push_services', configured: true, problem: null, receipts: true, lastTest: null, lastError: null });
    // the webhook without its receipt secret: it sends SMS, but no receipt it posts could be trusted
    expect(c.sms).toMatchObject({
      provider: 'webhook',
      configured: true,
      problem: null,
      receipts: false,
      lastTest: null,
      lastError: { at: '2026-01-02T04:00:00.000Z', message: expect.stringMatching(/^Twilio error 21211/) },
    });
    expect(c.email).toMatchObject({ provider: 'relay', configured: false, receipts: false });
    expect(c.email.problem).toMatch(/^The mail relay in Admin Settings is a refused address/);
    expect(c.voice).toMatchObject({
      provider: null,
      configured: false,
      problem: 'No Twilio account is set in Admin Settings for voice calls',
      receipts: false,
      lastTest: { at: '2026-01-02T03:04:05.000Z', ok: true, message: 'Twilio connection successful: account Ops is active' },
    });

    const saved = await api.call('PUT', '/admin/settings', admin, {
      webhook: { rotateSecret: true },
      email: { eventsKey: 'relay-signing-key' },
      twilio: { accountSid: sid, authToken: 'token-1234', fromNumber: '+16025550100' },
    });
    expect(saved.status).toBe(200);
    c = await report(admin);
    expect(c.sms).toMatchObject({ provider: 'webhook', receipts: true });
    expect(c.email).toMatchObject({ receipts: true });
    expect(c.voice).toMatchObject({ provider: 'twilio', configured: true, problem: null, receipts: true });

    await api.call('PUT', '/admin/settings', admin, { sms: { provider: 'twilio' }, voice: { enabled: false } });
    c = await report(admin);
    expect(c.sms).toMatchObject({ provider: 'twilio', configured: true, receipts: true });
    expect(c.voice).toMatchObject({ configured: false, problem: 'Voice calls are turned off in Admin Settings', receipts: false });
  });

  it('reads the counts at most every 30 seconds per process, the settings and records every time', async () => {
    await db().query(`INSERT INTO alerts.sms_opt_outs (phone_number) VALUES ('+16025550098')`);
    await db().query(`UPDATE alerts.channel_health SET last_error = 'busy gateway' WHERE channel = 'sms'`);
    const c = await report(admin);
    expect(c.sms.stoppedNumbers).toBe(2);
    expect(c.sms.lastError?.message).toBe('busy gateway');
  });
});

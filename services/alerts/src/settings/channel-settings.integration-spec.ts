import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { AlertAudience, ConnectionTestResult, DeliverySettings } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, TestSmtpRelay, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';
import { sendHeldNow } from '../testing/held-deliveries';

jest.setTimeout(90_000);

/**
 * Issue #38, "channel settings that tell the truth": the settings screen and the audience preview say a channel is not
 * configured when its address is one the sender would refuse, in the sender's own words; Send test e-mail really goes
 * through the relay; Test Connection for web push says what it checked and how many browsers a push would reach.
 */
describe('channel settings that tell the truth', () => {
  const stack = new DispatchStack();
  const relay = new TestSmtpRelay();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  const adminEmail = `ops-${randomUUID().slice(0, 8)}@example.test`;
  const call = jsonClient(() => alerts.url);
  const place = { lat: 33.4484, lng: -112.074 };

  beforeAll(async () => {
    await relay.start();
    await stack.start({ SWEEP_INTERVAL_SECONDS: '3600' });
    // Allow-listed by port: the fake push service and the TLS relay only. The fake SMTP server and SMS webhook the
    // stack points SMTP_URL and SMS_WEBHOOK_URL at are on 127.0.0.1 too, on other ports: the address rule refuses them.
    stack.vars.WEBHOOK_ALLOW_HOSTS = `${new URL(stack.push.origin).host},127.0.0.1:${relay.port}`;
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: adminEmail, role: 'admin' });
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
    await relay.close();
  });

  async function person(methods: { push?: boolean; sms?: boolean; email?: boolean }, phone?: string) {
    const id = randomUUID();
    const email = `person-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      home: place,
      radiusMiles: 5,
      methods: { push: false, sms: false, email: false, ...methods },
      phoneNumber: phone ?? null,
    });
    expect(saved.status).toBe(200);
    return { id, email, token };
  }

  const settings = async () => (await call<DeliverySettings>('GET', '/admin/settings', admin)).body;
  const testPush = async () => {
    const res = await call<ConnectionTestResult>('POST', '/admin/settings/test-connection', admin, {});
    expect(res.status).toBe(200);
    return res.body;
  };

  it('a relay and an SMS webhook the address rule refuses read "refused address" in the settings and the audience, and the sender refuses them in the same words', async () => {
    const shown = await settings();
    expect(shown.readiness).toEqual({
      push: null,
      sms: expect.stringMatching(/^The SMS webhook URL in Admin Settings is a refused address \(the URL points at a loopback address/),
      email: expect.stringMatching(/^The mail relay in Admin Settings is a refused address \(the URL points at a loopback address/),
      voice: 'No Twilio account is set in Admin Settings for voice calls',
    });
    const { sms: smsProblem, email: emailProblem } = shown.readiness!;

    const reader = await person({ email: true, sms: true }, '+16025550101');
    const body = {
      title: 'Boil water notice',
      message: 'Boil tap water before drinking it.',
      category: 'health',
      severity: 'high',
      ...place,
      radiusKm: 5,
      channels: ['email', 'sms'],
    };
    const preview = await call<AlertAudience>('POST', '/audience', admin, body);
    expect(preview.status).toBe(200);
    expect(preview.body.channels.email).toMatchObject({ recipients: 1, configured: false, reason: `${emailProblem}: e-mails will not be sent.` });
    expect(preview.body.channels.sms).toMatchObject({ recipients: 1, configured: false, reason: `${smsProblem}: SMS will not be sent.` });

    // Sent anyway: the dispatcher refuses both channels with the very text the preview showed, and nothing is sent.
    const sent = await call<{ id: string }>('POST', '', admin, body, { 'idempotency-key': randomUUID() });
    expect(sent.status).toBe(201);
    // the e-mail waits for the e-mail digest's hour (issue #40): the hour comes now
    expect(await sendHeldNow(stack, [sent.body.id])).toBe(1);
    const rows = await waitFor('both deliveries to fail', async () => {
      const r = await stack.db.query<{ channel: string; status: string; error: string }>(
        `SELECT channel, status, error FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY channel`,
        [sent.body.id],
      );
      return r.length === 2 && r.every((d) => d.status === 'failed') ? r : null;
    });
    expect(rows).toEqual([
      { channel: 'email', status: 'failed', error: emailProblem },
      { channel: 'sms', status: 'failed', error: smsProblem },
    ]);
    expect(stack.smtp.received.filter((m) => m.to.includes(reader.email))).toEqual([]);
    expect(stack.sms.received).toEqual([]);
  });

  it('an allow-listed relay reads ready, Test Connection signs in, and Send test e-mail really goes through it to the admin', async () => {
    const saved = await call<DeliverySettings>('PUT', '/admin/settings', admin, {
      email: { enabled: true, url: `${relay.url}&tls.rejectUnauthorized=false`, from: 'City Alerts <alerts@city.test>' },
    });
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain(relay.password);
    expect(saved.body.readiness?.email).toBeNull();
    const preview = await call<AlertAudience>('POST', '/audience', admin, {
      title: 'Mail check',
      message: 'Only a preview.',
      category: 'health',
      severity: 'low',
      ...place,
      radiusKm: 5,
      channels: ['email'],
    });
    expect(preview.body.channels.email).toMatchObject({ configured: true });

    expect((await call('POST', '/admin/settings/test-email', admin, {})).body).toMatchObject({ ok: true });
    // The URL as shown (password masked) stands for the saved one; changed around the mask, it is refused, never saved.
    const shownUrl = saved.body.email.url;
    expect((await call('POST', '/admin/settings/test-email', admin, { url: shownUrl })).body).toMatchObject({ ok: true });
    const moved = await call('PUT', '/admin/settings', admin, { email: { url: shownUrl.replace('127.0.0.1', '8.8.8.8') } });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ code: 'invalid_url', message: expect.stringContaining('type the relay') });
    expect((await settings()).email.url).toBe(shownUrl);

    const mailed = await call<ConnectionTestResult>('POST', '/admin/settings/send-test-email', admin, {});
    expect(mailed.status).toBe(200);
    expect(mailed.body).toEqual({ ok: true, message: `Mail relay 127.0.0.1 accepted the test e-mail for ${adminEmail}`, messageId: expect.any(String) });
    const got = relay.received.filter((m) => m.to.includes(adminEmail));
    expect(got).toEqual([expect.objectContaining({ subject: 'Beacon test e-mail', user: relay.user, secure: true })]);

    // The relay's own refusal is the outcome, not a success.
    relay.refuse(adminEmail, 550, '5.1.1 No such mailbox here', 1);
    const refused = await call<ConnectionTestResult>('POST', '/admin/settings/send-test-email', admin, {});
    expect(refused.body).toEqual({ ok: false, message: expect.stringMatching(/^Mail relay refused the test e-mail: 550 /) });

    // A relay typed before saving is checked as a send would be: refused addresses and options never reached.
    for (const [url, code] of [
      ['smtp://127.0.0.1:25', 'private_address'],
      [`${relay.url}&proxy=http://127.0.0.1:9`, 'smtp_option_not_allowed'],
    ]) {
      const res = await call('POST', '/admin/settings/send-test-email', admin, { url });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code });
    }
    expect(relay.received.filter((m) => m.to.includes(adminEmail))).toHaveLength(1);
  });

  it('Test Connection for web push says what it checked and how many browsers can receive; nobody, when nobody can', async () => {
    expect(await testPush()).toEqual({
      ok: true,
      provider: 'web-push',
      contacted: false,
      checked: ['vapid_keys', 'subscriptions'],
      devices: { browsers: 0, people: 0, subscribed: 0, failing: 0 },
      message: expect.stringMatching(
        /^Web push is ready: VAPID keys in place \(public key .{12}…\); no browser is subscribed yet: nobody would receive a push$/,
      ),
    });

    const subscribe = async (token: string) => {
      const ecdh = createECDH('prime256v1');
      const keys = { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
      const res = await call<{ id: string }>('POST', '/me/push-subscriptions', token, { endpoint: `${stack.push.origin}/push/${randomUUID()}`, keys });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    // Push turned off, a browser subscribed all the same: it would not get a push.
    const off = await person({ push: false });
    await subscribe(off.token);
    expect((await testPush()).message).toMatch(
      /; 1 browser is subscribed but none would get a push \(push turned off in their preferences, .*\): nobody would receive a push$/,
    );

    const twoBrowsers = await person({ push: true });
    const first = await subscribe(twoBrowsers.token);
    await subscribe(twoBrowsers.token);
    await subscribe((await person({ push: true })).token);
    const ready = await testPush();
    expect(ready.devices).toEqual({ browsers: 3, people: 2, subscribed: 4, failing: 0 });
    expect(ready.message).toMatch(/; 3 browsers of 2 people subscribed; 1 more subscribed browser would not get one \(push turned off/);

    await stack.db.query(`UPDATE alerts.push_subscriptions SET failures = 1, failing_since = now() WHERE id = $1`, [first]);
    expect((await testPush()).message).toMatch(/; 3 browsers of 2 people subscribed; .*; 1 of them failed its last push$/);
  });
});

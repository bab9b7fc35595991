import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { AdminAlert, AlertPreferences, JOB_QUEUE, JobName, queuePrefix, VOICE_MAX_ATTEMPTS, VOICE_RING_SECONDS, voiceWords } from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack, TEST_TWILIO } from '../testing/dispatch-stack';
import { sendHeldNow } from '../testing/held-deliveries';
import { parseTwiml, said, twimlElements } from '../testing/fake-twilio';
import { TWILIO_CALL_EVENTS } from '../providers/twilio.client';
import { STOPPED_BY_REPLY } from './sms.sender';

jest.setTimeout(90_000);

const PUBLIC_URL = 'http://localhost:8080';
const PHOENIX = { lat: 33.4484, lng: -112.074 };

interface Person {
  id: string;
  token: string;
  phone: string;
}

interface DeliveryRow {
  id: string;
  user_id: string;
  channel: string;
  status: string;
  error: string | null;
  attempts: number;
  not_before: Date | null;
  provider_message_id: string | null;
}

/**
 * SMS and voice through the Twilio-compatible provider, end to end: the alerts API and the dispatcher on PostgreSQL and
 * Redis, the fake Twilio API checking each request as Twilio documents it. Each test has its own place (and people).
 */
describe('SMS and voice through Twilio', () => {
  const stack = new DispatchStack();
  const { twilio } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let adminToken: string;
  let phoneSeq = 0;
  let placeSeq = 0;

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL, SWEEP_INTERVAL_SECONDS: '3600', CHANNEL_RETRY_BASE_MS: '200', VOICE_REDIAL_SECONDS: '1' });
    alerts = await startTestService(alertsService, stack.vars);
    // Twilio calls back PUBLIC_URL; here the alerts API itself answers there.
    twilio.route(`${PUBLIC_URL}/api/alerts`, alerts.url);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    adminToken = await stack.identity.token({ id: randomUUID(), email: 'twilio-admin@beacon.local', role: 'admin' });
    await useProvider('twilio');
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
  });

  beforeEach(() => {
    twilio.script = [];
    twilio.invalidNumbers.clear();
  });

  const call = jsonClient(() => alerts.url);

  /** The account of the stack's fake, saved as an admin would, with `provider` sending SMS. */
  async function useProvider(provider: 'twilio' | 'webhook', webhookUrl: string | null = null) {
    await stack.db.query(
      `INSERT INTO alerts.admin_settings (id, sms_provider, twilio_account_sid, twilio_auth_token, twilio_from, voice_enabled, webhook_url)
       VALUES (1, $1, $2, $3, $4, true, $5)
       ON CONFLICT (id) DO UPDATE SET sms_provider = excluded.sms_provider, twilio_account_sid = excluded.twilio_account_sid,
         twilio_auth_token = excluded.twilio_auth_token, twilio_from = excluded.twilio_from, voice_enabled = true, webhook_url = excluded.webhook_url`,
      [provider, TEST_TWILIO.accountSid, TEST_TWILIO.authToken, TEST_TWILIO.from, webhookUrl],
    );
  }

  /** A place of the test's own, far from the others' (10 km alerts never reach another test's people). */
  const newPlace = () => destination(PHOENIX, 40 + 30 * (placeSeq++ % 8), (placeSeq * 47) % 360);

  async function person(
    place: { lat: number; lng: number },
    o: { sms?: boolean; voice?: boolean; language?: string; quietHours?: AlertPreferences['quietHours']; phone?: string },
  ) {
    const id = randomUUID();
    const token = await stack.identity.token({ id, email: `t-${id.slice(0, 8)}@example.test` });
    const phone = o.phone ?? `+1480555${String(++phoneSeq).padStart(4, '0')}`;
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['emergency'],
      severityThreshold: 'low',
      home: place,
      radiusMiles: 5,
      methods: { push: false, email: false, sms: o.sms ?? false, voice: o.voice ?? false },
      phoneNumber: phone,
      ...(o.language ? { language: o.language } : {}),
      ...(o.quietHours ? { quietHours: o.quietHours } : {}),
    });
    expect(saved.status).toBe(200);
    return { id, token, phone } satisfies Person;
  }

  async function sendAlert(place: { lat: number; lng: number }, body: Record<string, unknown>) {
    const res = await call<AdminAlert>(
      'POST',
      '',
      adminToken,
      { category: 'health', lat: place.lat, lng: place.lng, radiusKm: 10, ...body },
      { 'idempotency-key': randomUUID() },
    );
    expect(res.status).toBe(201);
    return res.body;
  }

  const rows = (alertId: string) =>
    stack.db.query<DeliveryRow>(
      `SELECT id, user_id, channel, status, error, attempts, not_before, provider_message_id FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY round, channel, user_id`,
      [alertId],
    );

  /** The alert's deliveries once none is on its way (held ones apart), expecting `n` of them. */
  const settledRows = (alertId: string, n: number) =>
    waitFor(`the ${n} deliveries of ${alertId} to settle`, async () => {
      const r = await rows(alertId);
      return r.length === n && r.every((d) => !['pending', 'sending'].includes(d.status) || (d.not_before && d.not_before > new Date())) ? r : null;
    });

  const messagesTo = (phone: string) => twilio.messages.filter((m) => m.to === phone);
  const callsTo = (phone: string) => twilio.calls.filter((c) => c.to === phone);
  const callback = (path: string, deliveryId: string) => `${PUBLIC_URL}/api/alerts/providers/twilio/${path}?d=${deliveryId}`;

  const ES = { title: 'Fuga de gas: evacúe', message: 'Se reportó una fuga de gas; salga de la zona de inmediato.' };

  it('an SMS alert reaches each person once through Twilio, with the documented parameters and a StatusCallback naming its delivery', async () => {
    const place = newPlace();
    const people = [await person(place, { sms: true }), await person(place, { sms: true }), await person(place, { sms: true, language: 'es' })];
    const alert = await sendAlert(place, {
      title: 'Gas leak: evacuate',
      message: 'A gas leak was reported; leave the area now.',
      severity: 'high',
      locationName: 'Main St & 1st Ave',
      translations: { es: ES },
      channels: ['sms'],
    });
    const done = await settledRows(alert.id, 3);

    for (const [i, p] of people.entries()) {
      const [msg, ...more] = messagesTo(p.phone);
      expect(more).toHaveLength(0);
      const row = done.find((d) => d.user_id === p.id)!;
      // sent: Twilio accepted it; only its status callback may make it delivered
      expect(row).toMatchObject({ channel: 'sms', status: 'sent', error: null, provider_message_id: msg.sid });
      expect(msg.params).toEqual({
        To: p.phone,
        From: TEST_TWILIO.from,
        Body: i === 2 ? `${ES.title}\n\n${ES.message}` : 'Gas leak: evacuate\n\nA gas leak was reported; leave the area now.',
        StatusCallback: callback('sms/status', row.id),
      });
    }
    const detail = await call<AdminAlert>('GET', `/${alert.id}`, adminToken);
    expect(detail.body.deliveryLabel).toBe('Sent to provider');
  });

  it("a voice alert calls each person once, in their language, the alert said twice before the prompt and the key's destination", async () => {
    const place = newPlace();
    const en = await person(place, { voice: true });
    const es = await person(place, { voice: true, language: 'es' });
    const smsOnly = await person(place, { sms: true });
    const alert = await sendAlert(place, {
      title: 'Gas leak: evacuate',
      message: 'A gas leak was reported; leave the area now.',
      severity: 'high',
      locationName: 'Main St & 1st Ave',
      translations: { es: ES },
      channels: ['voice'],
    });
    const done = await settledRows(alert.id, 2);
    expect(done.map((d) => d.user_id).sort()).toEqual([en.id, es.id].sort());
    expect(callsTo(smsOnly.phone)).toHaveLength(0);

    for (const [p, language] of [
      [en, 'en'],
      [es, 'es'],
    ] as const) {
      const [placed, ...more] = callsTo(p.phone);
      expect(more).toHaveLength(0);
      const row = done.find((d) => d.user_id === p.id)!;
      expect(row).toMatchObject({ channel: 'voice', status: 'sent', provider_message_id: placed.sid });
      expect(placed).toMatchObject({
        from: TEST_TWILIO.from,
        statusCallback: callback('voice/status', row.id),
        statusCallbackEvent: TWILIO_CALL_EVENTS,
        timeout: VOICE_RING_SECONDS,
      });
      const [gather] = twimlElements(parseTwiml(placed.twiml!), 'Gather');
      expect(gather.attrs).toMatchObject({ action: callback('voice/gather', row.id), method: 'POST', numDigits: '1' });
      const w = voiceWords(language);
      const title = language === 'es' ? ES.title : 'Gas leak: evacuate';
      const lines = said(placed.twiml!);
      expect(lines.every((l) => l.language === (language === 'es' ? 'es-US' : 'en-US'))).toBe(true);
      expect(lines[0].text).toBe(
        `${w.intro} ${title}. ${language === 'es' ? ES.message : 'A gas leak was reported; leave the area now.'} ${w.place} Main St & 1st Ave.`,
      );
      expect(lines[1].text).toBe(`${w.repeat} ${lines[0].text.slice(w.intro.length + 1)}`);
      expect(lines.slice(2)).toEqual([
        { language: lines[0].language, text: w.prompt, inGather: true },
        { language: lines[0].language, text: w.goodbye, inGather: false },
      ]);
    }
  });

  it('an update and an all-clear call again, with the lifecycle words, once each', async () => {
    const place = newPlace();
    const es = await person(place, { voice: true, language: 'es' });
    const alert = await sendAlert(place, {
      title: 'Gas leak: evacuate',
      message: 'A gas leak was reported; leave the area now.',
      severity: 'high',
      translations: { es: ES },
      channels: ['voice'],
    });
    await settledRows(alert.id, 1);
    const updated = await call<AdminAlert>('POST', `/${alert.id}/update`, adminToken, {
      title: 'Gas leak: stay away',
      translations: { es: { title: 'Fuga de gas: manténgase lejos', message: 'La zona sigue cerrada.' } },
    });
    expect(updated.status).toBe(200);
    await settledRows(alert.id, 2);
    expect((await call('POST', `/${alert.id}/all-clear`, adminToken, {})).status).toBe(200);
    await settledRows(alert.id, 3);

    const calls = callsTo(es.phone);
    expect(calls.map((c) => said(c.twiml!)[1].text.split('. ')[0])).toEqual([
      'Repetimos: Fuga de gas: evacúe',
      'Repetimos: Actualización: Fuga de gas: manténgase lejos',
      'Repetimos: Fin de la alerta: Fuga de gas: manténgase lejos',
    ]);
  });

  it('quiet hours hold a voice call that is not critical; a critical one calls at once; the held one calls when they end', async () => {
    const place = newPlace();
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quietHours = { enabled: true, start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 3600_000)), timeZone: 'UTC' };
    const sleeper = await person(place, { voice: true, quietHours });
    const medium = await sendAlert(place, { title: 'Pollen count high', message: 'Tree pollen is high today.', severity: 'medium', channels: ['voice'] });
    const [held] = await settledRows(medium.id, 1);
    expect(held.status).toBe('pending');
    expect(held.not_before!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);

    const critical = await sendAlert(place, { title: 'Gas leak: evacuate', message: 'Leave the area now.', severity: 'critical', channels: ['voice'] });
    const [sent] = await settledRows(critical.id, 1);
    expect(sent).toMatchObject({ status: 'sent', not_before: null });
    expect(callsTo(sleeper.phone).map((c) => said(c.twiml!)[0].text)).toEqual([expect.stringContaining('Gas leak: evacuate')]);

    // Their quiet hours end (the release brought forward): the held call goes then, once.
    await releaseHeld([medium.id], 'voice');
    await waitFor('the held call', async () => ((await rows(medium.id))[0].status === 'sent' ? true : null));
    expect(callsTo(sleeper.phone).map((c) => said(c.twiml!)[0].text)).toEqual([
      expect.stringContaining('Gas leak'),
      expect.stringContaining('Pollen count high'),
    ]);
  });

  it("an hourly-digest reader's held alerts come due together as one call that says each, most severe first", async () => {
    const place = newPlace();
    const id = randomUUID();
    const token = await stack.identity.token({ id, email: `digest-${id.slice(0, 8)}@example.test` });
    const phone = `+1480555${String(++phoneSeq).padStart(4, '0')}`;
    const prefs = { alertTypes: ['emergency'], home: place, radiusMiles: 5, methods: { push: false, voice: true }, phoneNumber: phone, frequency: 'hourly' };
    expect((await call('PUT', '/me/preferences', token, prefs)).status).toBe(200);
    const pollen = await sendAlert(place, { title: 'Pollen count high', message: 'Tree pollen is high today.', severity: 'low', channels: ['voice'] });
    const smoke = await sendAlert(place, { title: 'Wildfire smoke', message: 'Stay indoors with windows closed.', severity: 'high', channels: ['voice'] });
    for (const a of [pollen, smoke]) expect((await settledRows(a.id, 1))[0].status).toBe('pending');

    await releaseHeld([pollen.id, smoke.id], 'voice');
    await waitFor('both held deliveries sent', async () => {
      const r = [...(await rows(pollen.id)), ...(await rows(smoke.id))];
      return r.every((d) => d.status === 'sent') ? r : null;
    });
    const calls = callsTo(phone);
    expect(calls).toHaveLength(1);
    const lines = said(calls[0].twiml!).map((l) => l.text);
    expect(lines[0]).toBe(`${voiceWords('en').intro} 2 alerts in your area, the most severe first. Wildfire smoke. Stay indoors with windows closed.`);
    expect(lines[1]).toBe('Pollen count high. Tree pollen is high today.');
  });

  /**
   * Brings the release of the alerts' held deliveries on `channel` forward to now: once each alert's dispatch has queued
   * its delayed job (a row moved before that would be planned as due at once), the rows, then the jobs.
   */
  async function releaseHeld(alertIds: string[], channel: 'sms' | 'voice') {
    const queue = new Queue(JOB_QUEUE[channel === 'sms' ? JobName.SmsSend : JobName.VoiceSend], {
      connection: { url: stack.redis.url } as never,
      prefix: queuePrefix(stack.redis.prefix),
    });
    try {
      const jobs = await waitFor(`the held ${channel} jobs`, async () => {
        const delayed = (await queue.getDelayed()).filter((j) => alertIds.includes(j.data.alertId));
        return alertIds.every((id) => delayed.some((j) => j.data.alertId === id)) ? delayed : null;
      });
      await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE alert_id = ANY($1::uuid[]) AND channel = $2`, [alertIds, channel]);
      for (const job of jobs) await job.promote();
    } finally {
      await queue.close();
    }
  }

  it('a 503 from Twilio is retried, and the call ends sent, once', async () => {
    const place = newPlace();
    const p = await person(place, { voice: true, sms: true });
    twilio.script = [
      { status: 503, retryAfter: '1' },
      { status: 503, retryAfter: '1' },
    ];
    const alert = await sendAlert(place, {
      title: 'Boil water notice',
      message: 'Boil tap water before drinking.',
      severity: 'high',
      channels: ['voice', 'sms'],
    });
    const done = await settledRows(alert.id, 2);
    expect(done.map((d) => [d.channel, d.status, d.attempts])).toEqual([
      ['sms', 'sent', expect.any(Number)],
      ['voice', 'sent', expect.any(Number)],
    ]);
    // Two refusals between the two channels, each retried: one message and one call in the end.
    expect(done.reduce((n, d) => n + d.attempts, 0)).toBe(4);
    expect(callsTo(p.phone)).toHaveLength(1);
    expect(messagesTo(p.phone)).toHaveLength(1);
  });

  it("a number Twilio refuses fails that delivery with Twilio's code (never the number) and provider health records it", async () => {
    const place = newPlace();
    const bad = await person(place, { voice: true, sms: true });
    const good = await person(place, { voice: true, sms: true });
    twilio.invalidNumbers.add(bad.phone);
    const alert = await sendAlert(place, {
      title: 'Boil water notice',
      message: 'Boil tap water before drinking.',
      severity: 'high',
      channels: ['voice', 'sms'],
    });
    const done = await settledRows(alert.id, 4);
    const expected = "Twilio error 21211: The 'To' number [number] is not a valid phone number. (HTTP 400)";
    for (const d of done) {
      if (d.user_id === good.id) expect(d.status).toBe('sent');
      else expect(d).toMatchObject({ status: 'failed', error: expected, attempts: 1 });
    }
    const health = await stack.db.query<{ channel: string; last_error: string }>(`SELECT channel, last_error FROM alerts.channel_health ORDER BY channel`);
    expect(health.filter((h) => ['sms', 'voice'].includes(h.channel))).toEqual([
      { channel: 'sms', last_error: expected },
      { channel: 'voice', last_error: expected },
    ]);
    expect(JSON.stringify(health)).not.toContain(bad.phone.slice(2));
  });

  it('a STOPped number gets no SMS, held or new, and the console says why; voice still calls it', async () => {
    const place = newPlace();
    // Stopped before the alert: the audience leaves SMS out.
    const stoppedNumber = `+1480555${String(++phoneSeq).padStart(4, '0')}`;
    await stack.db.query(`INSERT INTO alerts.sms_opt_outs (phone_number) VALUES ($1)`, [stoppedNumber]);
    const stopped = await person(place, { sms: true, voice: true, phone: stoppedNumber });
    // Stops while their alert is held for quiet hours: the SMS is withdrawn at its release, with the reason.
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quietHours = { enabled: true, start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 3600_000)), timeZone: 'UTC' };
    const later = await person(place, { sms: true, voice: true, quietHours });

    const alert = await sendAlert(place, {
      title: 'Water main break',
      message: 'Expect low pressure until evening.',
      severity: 'medium',
      channels: ['sms', 'voice'],
    });
    const first = await settledRows(alert.id, 3);
    expect(first.filter((d) => d.user_id === stopped.id).map((d) => [d.channel, d.status])).toEqual([['voice', 'sent']]);
    expect(callsTo(stopped.phone)).toHaveLength(1);
    expect(messagesTo(stopped.phone)).toHaveLength(0);

    await stack.db.query(`INSERT INTO alerts.sms_opt_outs (phone_number) VALUES ($1)`, [later.phone]);
    await stack.db.query(`UPDATE alerts.user_preferences SET sms_stopped = true WHERE phone_number = $1`, [later.phone]);
    await releaseHeld([alert.id], 'sms');
    await releaseHeld([alert.id], 'voice');
    const done = await waitFor('the released deliveries', async () => {
      const r = (await rows(alert.id)).filter((d) => d.user_id === later.id);
      return r.every((d) => !['pending', 'sending'].includes(d.status)) ? r : null;
    });
    expect(done.map((d) => [d.channel, d.status, d.error])).toEqual([
      ['sms', 'cancelled', STOPPED_BY_REPLY],
      ['voice', 'sent', null],
    ]);
    expect(messagesTo(later.phone)).toHaveLength(0);
    expect(callsTo(later.phone)).toHaveLength(1);
  });

  it('a call nobody answers is dialled again by the dispatcher, up to three calls, then fails as no answer; an answered one is delivered', async () => {
    const place = newPlace();
    const [silent, answering] = [await person(place, { voice: true }), await person(place, { voice: true })];
    const alert = await sendAlert(place, { title: 'Flash flood warning', message: 'Move to higher ground now.', severity: 'critical', channels: ['voice'] });
    await settledRows(alert.id, 2);

    // The answering person picks up at once: their delivery is delivered, from Twilio's own callback.
    const answered = callsTo(answering.phone)[0];
    expect((await twilio.callStatus(answered, 'completed')).status).toBe(200);
    // Nobody picks up the other: each call's no-answer brings the next, placed by the dispatcher's redial job.
    for (let n = 1; n <= VOICE_MAX_ATTEMPTS; n++) {
      const placed = await waitFor(`call ${n} to the silent person`, async () => (callsTo(silent.phone).length >= n ? callsTo(silent.phone) : null));
      expect(placed).toHaveLength(n);
      expect((await twilio.callStatus(placed[n - 1], 'no-answer')).status).toBe(200);
    }
    const done = await waitFor('the silent delivery failed', async () => {
      const r = await rows(alert.id);
      return r.find((d) => d.user_id === silent.id)?.status === 'failed' ? r : null;
    });
    expect(done.find((d) => d.user_id === silent.id)).toMatchObject({ status: 'failed', error: 'no answer', attempts: VOICE_MAX_ATTEMPTS });
    expect(done.find((d) => d.user_id === answering.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    // No fourth call, and the answered person was called once.
    await new Promise((r) => setTimeout(r, 1500));
    expect(callsTo(silent.phone)).toHaveLength(VOICE_MAX_ATTEMPTS);
    expect(callsTo(answering.phone)).toHaveLength(1);
  });

  it("provider health records a push service's refusal and a refused e-mail batch, with no contact in it", async () => {
    const place = newPlace();
    const id = randomUUID();
    const email = `health-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const prefs = { alertTypes: ['emergency'], home: place, radiusMiles: 5, methods: { push: true, email: true, sms: false, voice: false } };
    expect((await call('PUT', '/me/preferences', token, prefs)).status).toBe(200);
    const sub = stack.push.subscribe([400]);
    expect((await call('POST', '/me/push-subscriptions', token, sub.json)).status).toBe(201);
    await stack.db.query(`UPDATE alerts.admin_settings SET email_enabled = false`);
    try {
      const alert = await sendAlert(place, {
        title: 'Boil water notice',
        message: 'Boil tap water before drinking.',
        severity: 'high',
        channels: ['push', 'email'],
      });
      // the e-mail waits for the e-mail digest's hour (issue #40): the hour comes now
      expect(await sendHeldNow(stack, [alert.id])).toBe(1);
      const done = await settledRows(alert.id, 2);
      expect(done.map((d) => [d.channel, d.status])).toEqual([
        ['email', 'failed'],
        ['push', 'failed'],
      ]);
    } finally {
      await stack.db.query(`UPDATE alerts.admin_settings SET email_enabled = true`);
    }
    // Written once the batch's outcomes are (provider health is advisory), so it may follow them by a moment.
    const health = await waitFor('both channels recorded', async () => {
      const found = await stack.db.query<{ channel: string; last_error: string }>(
        `SELECT channel, last_error FROM alerts.channel_health WHERE channel IN ('push', 'email') ORDER BY channel`,
      );
      return found.length === 2 ? found : null;
    });
    expect(health).toEqual([
      { channel: 'email', last_error: 'E-mail is turned off in Admin Settings' },
      { channel: 'push', last_error: 'push service answered 400' },
    ]);
    expect(JSON.stringify(health)).not.toContain(email);
  });

  describe('the generic webhook', () => {
    let gateway: Server;
    const bodies: Record<string, unknown>[] = [];

    beforeAll(async () => {
      // A gateway that claims it delivered the message: Beacon counts it sent until a receipt says so.
      gateway = createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => (raw += c));
        req.on('end', () => {
          bodies.push(JSON.parse(raw));
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ messageId: 'gw-1', status: 'delivered' }));
        });
      });
      await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
      await useProvider('webhook', `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`);
    });

    afterAll(async () => {
      await useProvider('twilio');
      await new Promise((r) => gateway.close(r));
    });

    it("names each delivery and where its receipts go, and an answer saying 'delivered' is only sent", async () => {
      const place = newPlace();
      const a = await person(place, { sms: true });
      const b = await person(place, { sms: true });
      const alert = await sendAlert(place, { title: 'Water main break', message: 'Expect low pressure until evening.', severity: 'high', channels: ['sms'] });
      const done = await settledRows(alert.id, 2);
      expect(done.map((d) => d.status)).toEqual(['sent', 'sent']);
      const body = bodies.find((x) => x.title === 'Water main break')!;
      expect(body).toMatchObject({
        title: 'Water main break',
        message: 'Expect low pressure until evening.',
        callbackUrl: `${PUBLIC_URL}/api/alerts/providers/webhook/status`,
      });
      expect([...(body.recipients as string[])].sort()).toEqual([a.phone, b.phone].sort());
      expect(body.deliveries).toEqual(expect.arrayContaining(done.map((d) => ({ id: d.id, to: d.user_id === a.id ? a.phone : b.phone }))));
      expect(twilio.messages.filter((m) => [a.phone, b.phone].includes(m.to))).toHaveLength(0);
    });
  });
});

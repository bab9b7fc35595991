import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { io, Socket } from 'socket.io-client';
import {
  AdminAlert,
  AlertAudience,
  AlertAuditEntry,
  AlertOperations,
  AlertPreferences,
  AlertProgress,
  DeliveryChannel,
  JOB_QUEUE,
  JobIds,
  JobName,
  NewAlertEvent,
  PreferenceAlertType,
  queuePrefix,
  Severity,
  totalCounts,
  messageWords,
} from '@beacon/contracts';
import { destination, isEligible } from '@beacon/geo';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { gatewayService } from '../../gateway/src/service';
import { dispatcherService } from './dispatcher.service';
import { DispatchStack } from './testing/dispatch-stack';
import { FakePushAnswer } from './testing/fake-push-service';
import { sendHeldNow } from './testing/held-deliveries';

const PHOENIX = { lat: 33.4484, lng: -112.074 };
const TUCSON = { lat: 32.2226, lng: -110.9747 };
const FLAGSTAFF = { lat: 35.1983, lng: -111.6513 };
const YUMA = { lat: 32.6927, lng: -114.6277 };

interface TestUser {
  id: string;
  email: string;
  token: string;
  prefs: AlertPreferences;
  subscriptionId: string | null;
  phone: string | null;
}

jest.setTimeout(60_000);

describe('alerts service + dispatcher + gateway, end to end on PostgreSQL and Redis', () => {
  const stack = new DispatchStack();
  const { redis, push, sms, smtp } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let gateway: RunningService<unknown>;
  let adminToken: string;
  const sockets: Socket[] = [];
  let phoneSeq = 0;

  beforeAll(async () => {
    await stack.start({
      PUBLIC_URL: 'http://localhost:8080',
      PUSH_BATCH_SIZE: '5',
      SMS_BATCH_SIZE: '4',
      EMAIL_BATCH_SIZE: '3',
      SWEEP_INTERVAL_SECONDS: '3600',
    });
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

  async function makeUser(o: {
    alertTypes: PreferenceAlertType[];
    threshold?: Severity;
    home: { lat: number; lng: number } | null;
    radiusMiles?: number;
    push?: boolean;
    sms?: boolean;
    email?: boolean;
    script?: FakePushAnswer[];
    quietHours?: AlertPreferences['quietHours'];
    frequency?: AlertPreferences['frequency'];
    /** Push on in the preferences, but no browser subscribed yet (the default for a new user). */
    noDevice?: boolean;
    /** The language they read alerts in (absent: none chosen, English). */
    language?: string;
  }): Promise<TestUser> {
    const id = randomUUID();
    const email = `user-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const phone = o.sms ? `+1602555${String(++phoneSeq).padStart(4, '0')}` : null;
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, {
      alertTypes: o.alertTypes,
      severityThreshold: o.threshold ?? 'low',
      home: o.home,
      radiusMiles: o.radiusMiles ?? 25,
      methods: { push: o.push ?? false, sms: o.sms ?? false, email: o.email ?? false, voice: true },
      phoneNumber: phone,
      ...(o.quietHours ? { quietHours: o.quietHours } : {}),
      ...(o.frequency ? { frequency: o.frequency } : {}),
      ...(o.language ? { language: o.language } : {}),
    });
    expect(saved.status).toBe(200);
    let subscriptionId: string | null = null;
    if (o.push && !o.noDevice) {
      const sub = push.subscribe(o.script);
      const reg = await call('POST', '/me/push-subscriptions', token, sub.json);
      expect(reg.status).toBe(201);
      subscriptionId = sub.id;
    }
    return { id, email, token, prefs: saved.body, subscriptionId, phone };
  }

  /** Runs `fn` with these admin settings saved, and puts back what was saved before, whatever happens. */
  async function withSettings(change: { webhook?: { enabled: boolean; url: string }; email?: { enabled: boolean } }, fn: () => Promise<void>) {
    const before = (await call<{ webhook: { enabled: boolean; url: string }; email: { enabled: boolean } }>('GET', '/admin/settings', adminToken)).body;
    expect((await call('PUT', '/admin/settings', adminToken, change)).status).toBe(200);
    try {
      await fn();
    } finally {
      await call('PUT', '/admin/settings', adminToken, {
        webhook: { enabled: before.webhook.enabled, url: before.webhook.url },
        email: { enabled: before.email.enabled },
      });
    }
  }

  async function sendAlert(body: Record<string, unknown>, key = randomUUID()) {
    const res = await call<AdminAlert>('POST', '', adminToken, body, { 'idempotency-key': key });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function deliveries(alertId: string) {
    return stack.db.query<{
      id: string;
      user_id: string;
      channel: DeliveryChannel;
      status: string;
      attempts: number;
      not_before: Date | null;
      error: string | null;
      next_attempt_at: Date | null;
    }>(`SELECT id, user_id, channel, status, attempts, not_before, error, next_attempt_at FROM alerts.alert_deliveries WHERE alert_id = $1`, [alertId]);
  }

  const settled = (alertId: string) =>
    waitFor(`alert ${alertId} to settle`, async () => {
      const res = await call<AdminAlert>('GET', `/${alertId}`, adminToken);
      return res.body.recipients !== null && res.body.deliveryLabel !== 'Pending' ? res.body : null;
    });

  function adminSocket(): Promise<Socket> {
    return socketOf(adminToken);
  }

  function socketOf(token: string): Promise<Socket> {
    const s = io(gateway.origin, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(s);
    return new Promise((resolve, reject) => {
      s.on('connect', () => resolve(s));
      s.on('connect_error', reject);
    });
  }

  it('delivers to exactly the eligible users, once per channel, and admins watch progress reach the totals', async () => {
    const progress: AlertProgress[] = [];
    const socket = await adminSocket();
    socket.on('alert:progress', (p) => progress.push(p));

    // A population around Phoenix: every combination of threshold, categories, distance, radius and channels.
    const users: TestUser[] = [];
    const typeSets: PreferenceAlertType[][] = [['traffic'], ['weather'], ['construction', 'crime'], ['weather', 'events']];
    const places = [null, destination(PHOENIX, 5, 40), destination(PHOENIX, 15, 200), destination(PHOENIX, 30, 300)];
    let i = 0;
    for (const alertTypes of typeSets) {
      for (const home of places) {
        for (const threshold of ['medium', 'critical'] as Severity[]) {
          i++;
          users.push(
            await makeUser({
              alertTypes,
              threshold,
              home,
              radiusMiles: i % 3 === 0 ? 5 : 25,
              push: i % 2 === 0 || i % 5 === 0,
              sms: i % 3 !== 1,
              email: i % 4 !== 2,
            }),
          );
        }
      }
    }

    const body = {
      title: 'Wrong-way driver on I-10',
      message: 'A wrong-way driver is heading west on I-10 near downtown. Avoid the freeway.',
      type: 'Traffic',
      severity: 'high',
      category: 'traffic',
      lat: PHOENIX.lat,
      lng: PHOENIX.lng,
      radiusKm: 20,
      channels: ['web_push', 'sms', 'email'],
    };
    const key = randomUUID();
    const alert = await sendAlert(body, key);
    // A double submit (same Idempotency-Key) returns the same alert and sends nothing more.
    const again = await call<AdminAlert>('POST', '', adminToken, body, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(alert.id);

    // Its e-mails wait for the e-mail digest's hour (issue #40): the hour comes now.
    expect(await sendHeldNow(stack, [alert.id])).toBeGreaterThan(0);
    const done = await settled(alert.id);

    const eligible = users.filter((u) =>
      isEligible(
        { severity: 'high', category: 'traffic', lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 20 },
        {
          severityThreshold: u.prefs.severityThreshold,
          categories: u.prefs.categories,
          lat: u.prefs.home?.lat ?? null,
          lng: u.prefs.home?.lng ?? null,
          radiusKm: u.prefs.radiusKm,
        },
      ),
    );
    // (None of those without a home: a located alert is not theirs, issue #42.)
    expect(eligible.length).toBeGreaterThanOrEqual(3);
    expect(eligible.length).toBeLessThan(users.length);

    const expectedRows = eligible
      .flatMap((u) => [...(u.subscriptionId ? [`${u.id}:push`] : []), ...(u.phone ? [`${u.id}:sms`] : []), ...(u.prefs.methods.email ? [`${u.id}:email`] : [])])
      .sort();
    const rows = await deliveries(alert.id);
    expect(rows.map((r) => `${r.user_id}:${r.channel}`).sort()).toEqual(expectedRows);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(done.recipients).toBe(new Set(rows.map((r) => r.user_id)).size);
    // Every message accepted by its provider and none with a receipt yet: sent, never "delivered" (issue #39).
    expect(done.deliveryLabel).toBe('Sent to provider');
    expect(done.successRate).toBe(100);

    // Push: one valid, decryptable message per eligible subscriber, and nobody else.
    const pushed = push.received.filter((r) => r.payload?.alertId === alert.id);
    const pushUsers = eligible.filter((u) => u.subscriptionId);
    expect(pushed.map((r) => r.subscriptionId).sort()).toEqual(pushUsers.map((u) => u.subscriptionId).sort());
    for (const r of pushed) {
      expect(r.vapidValid).toBe(true);
      expect(r.status).toBe(201);
      expect(r.payload).toMatchObject({ title: body.title, body: body.message, severity: 'high', url: `/alerts/${alert.id}`, priority: 5, ttl: 3600 });
      expect(r.idempotencyKey).toBe(r.payload!.deliveryId);
      expect(r.topic).toBe(alert.id.replace(/-/g, ''));
      expect(r.ttl).toBe('3600');
    }

    // SMS: batched webhook calls with the spec's payload; every eligible phone exactly once.
    const calls = sms.received.filter((c) => c.body.title === body.title);
    const phones = calls.flatMap((c) => c.body.recipients);
    expect(phones.sort()).toEqual(
      eligible
        .filter((u) => u.phone)
        .map((u) => u.phone!)
        .sort(),
    );
    expect(calls.length).toBe(Math.ceil(phones.length / 4));
    for (const c of calls) {
      // the spec's payload, and where and for which deliveries the gateway may post receipts (issue #39)
      expect(Object.keys(c.body).sort()).toEqual([
        'callbackUrl',
        'deliveries',
        'language',
        'message',
        'priority',
        'recipients',
        'source',
        'timestamp',
        'title',
        'type',
      ]);
      expect(c.body).toMatchObject({ type: 'Traffic', priority: 'high', source: 'beacon' });
      expect(c.idempotencyKey).toMatch(new RegExp(`^sms:${alert.id}:\\d+$`));
    }
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(calls.length);

    // Email: one message per eligible user with email on, to the address from their token.
    const mails = smtp.received.filter((m) => m.subject?.includes('Wrong-way driver on I-10'));
    expect(mails.flatMap((m) => m.to).sort()).toEqual(
      eligible
        .filter((u) => u.prefs.methods.email)
        .map((u) => u.email)
        .sort(),
    );
    const emailRows = rows.filter((r) => r.channel === 'email');
    expect(mails.map((m) => m.idempotencyKey).sort()).toEqual(emailRows.map((r) => r.id).sort());

    // Live: progress events (aggregated, not one per delivery) end at the totals.
    const final = await waitFor('a final progress event', () => progress.filter((p) => p.alertId === alert.id && p.done).pop());
    expect(totalCounts(final.channels).sent).toBe(rows.length);
    expect(final.recipients).toBe(done.recipients);
    expect(progress.filter((p) => p.alertId === alert.id).length).toBeLessThan(rows.length);
  });

  it('sends each recipient the alert in their language on push, SMS and e-mail, and English where it has none', async () => {
    const place = destination(YUMA, 3, 90);
    const make = (language?: string) => makeUser({ alertTypes: ['traffic'], home: place, radiusMiles: 5, push: true, sms: true, email: true, language });
    const spanish = await make('es');
    const french = await make('fr');
    const unset = await make();
    const english = { title: 'Wrong-way driver on I-8 near Yuma', message: 'A wrong-way driver is heading east on I-8. Leave the freeway if you can.' };
    const es = { title: 'Conductor en sentido contrario en la I-8', message: 'Un conductor circula en sentido contrario en la I-8. Salga de la autopista.' };
    const alert = await sendAlert({
      ...english,
      translations: { es },
      type: 'Traffic',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
      channels: ['push', 'sms', 'email'],
    });
    expect(alert.translations).toEqual({ es });
    expect(await sendHeldNow(stack, [alert.id])).toBeGreaterThanOrEqual(3);
    await settled(alert.id);
    const want = new Map([
      [spanish.id, { ...es, lang: 'es' }],
      [french.id, { ...english, lang: 'en' }],
      [unset.id, { ...english, lang: 'en' }],
    ]);

    // Push: the payload's title, body and lang.
    for (const u of [spanish, french, unset]) {
      const [r, ...more] = push.for(u.subscriptionId!).filter((x) => x.payload?.alertId === alert.id);
      expect(more).toEqual([]);
      const { title, message, lang } = want.get(u.id)!;
      expect(r.payload).toMatchObject({ title, body: message, lang });
    }

    // SMS: one call per language, each to the phones of its readers, under keys of their own.
    const calls = sms.received.filter((c) => [english.title, es.title].includes(c.body.title));
    const callOf = (u: TestUser) => calls.filter((c) => c.body.recipients.includes(u.phone!));
    for (const u of [spanish, french, unset]) {
      const [c, ...more] = callOf(u);
      expect(more).toEqual([]);
      const { title, message, lang } = want.get(u.id)!;
      expect(c.body).toMatchObject({ title, message, language: lang });
    }
    expect(callOf(french)[0]).toBe(callOf(unset)[0]);
    expect(callOf(spanish)[0]).not.toBe(callOf(french)[0]);
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(calls.length);

    // E-mail: subject and body.
    for (const u of [spanish, french, unset]) {
      const mails = smtp.received.filter((m) => m.to.includes(u.email));
      expect(mails).toHaveLength(1);
      const { title, message, lang } = want.get(u.id)!;
      // Beacon's own words in the language of the text: "[Alta]" around the Spanish, "[High]" around the English
      expect(mails[0].subject).toBe(`[${messageWords(lang).severities.high}] ${title}`);
      // The bodies are quoted-printable: soft line breaks undone (the texts are ASCII otherwise).
      const body = mails[0].raw.replace(/=\r?\n/g, '');
      expect(body).toContain(message);
      expect(body).not.toContain(u === spanish ? english.message : es.message);
    }

    // Their own feed and the alert's page read the same way.
    for (const u of [spanish, french]) {
      const one = await call<{ title: string; message: string; language: string }>('GET', `/me/alerts/${alert.id}`, u.token);
      const { title, message, lang } = want.get(u.id)!;
      expect(one.body).toMatchObject({ title, message, language: lang });
    }
  });

  it('says No Recipients, not All Delivered, for an alert that concerned nobody; Not Sent for a draft cancelled before sending', async () => {
    // In the open sea off Baja California: nobody lives there, and nobody without a home follows public safety here.
    const alert = await sendAlert({
      title: 'Test of an empty area',
      message: 'Nobody should get this.',
      category: 'health',
      severity: 'low',
      lat: 27.5,
      lng: -116.5,
      radiusKm: 1,
      channels: ['push', 'sms'],
    });
    const done = await settled(alert.id);
    expect(done).toMatchObject({ recipients: 0, deliveryLabel: 'No Recipients', successRate: 0 });

    const draft = await call<AdminAlert>('POST', '', adminToken, {
      title: 'Draft',
      message: 'Never sent.',
      category: 'health',
      severity: 'low',
      channels: ['push'],
      draft: true,
    });
    const cancelled = await call<AdminAlert>('POST', `/${draft.body.id}/cancel`, adminToken);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', recipients: null, deliveryLabel: 'Not Sent' });
  });

  it('previews exactly whom the dispatch then reaches, per channel, held and unreachable apart, with nothing sent', async () => {
    const place = destination(PHOENIX, 120, 45);
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quietHours = { enabled: true, start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 3600_000)), timeZone: 'UTC' };
    // Health alerts here: no other user of this suite without a home follows them, so the counts are this test's alone.
    const near = { alertTypes: ['emergency'] as PreferenceAlertType[], home: place };
    const users = {
      pushDevice: await makeUser({ ...near, push: true }),
      pushNoDevice: await makeUser({ ...near, push: true, noDevice: true }),
      sms: await makeUser({ ...near, sms: true }),
      emailOnly: await makeUser({ ...near, email: true }),
      pushAndSms: await makeUser({ ...near, push: true, sms: true }),
      smsHeld: await makeUser({ ...near, sms: true, quietHours }),
      farAway: await makeUser({ alertTypes: ['emergency'], home: destination(place, 60, 0), sms: true }),
      otherTopic: await makeUser({ alertTypes: ['weather'], home: place, sms: true }),
    };
    const body = {
      title: 'Chlorine leak at the water plant',
      message: 'Shelter in place; close windows.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 10,
      channels: ['push', 'sms'],
    };

    const preview = await call<AlertAudience>('POST', '/audience', adminToken, body);
    expect(preview.status).toBe(200);
    // By hand: six concerned; pushNoDevice and emailOnly have none of the alert's channels that reaches them.
    expect(preview.body).toEqual({
      token: expect.any(String),
      concerned: 6,
      recipients: 4,
      held: 1,
      channels: {
        push: { recipients: 2, held: 0, configured: true },
        sms: { recipients: 3, held: 1, configured: true },
      },
      unreachable: { noChannel: 2, noDevice: 1, smsStopped: 0 },
    });
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alerts WHERE title = 'Chlorine leak at the water plant'`);
    expect(n).toBe(0);

    // The dispatch writes rows for exactly those people and channels.
    const alert = await sendAlert(body);
    const rows = await waitFor('the delivery rows', async () => {
      const r = await deliveries(alert.id);
      return r.length === 5 ? r : null;
    });
    const reached = (channel: string) =>
      rows
        .filter((r) => r.channel === channel)
        .map((r) => r.user_id)
        .sort();
    expect(reached('push')).toEqual([users.pushDevice.id, users.pushAndSms.id].sort());
    expect(reached('sms')).toEqual([users.sms.id, users.pushAndSms.id, users.smsHeld.id].sort());
    expect(rows.filter((r) => r.not_before && new Date(r.not_before) > new Date()).map((r) => r.user_id)).toEqual([users.smsHeld.id]);
    const done = await waitFor('the recipients count', async () => (await call<AdminAlert>('GET', `/${alert.id}`, adminToken)).body.recipients ?? null);
    expect(done).toBe(preview.body.recipients);
    // And whom it concerned, reached or not, as the preview said: the two no channel reaches are counted, not lost.
    const concerned = await waitFor('the concerned count', async () => (await call<AdminAlert>('GET', `/${alert.id}`, adminToken)).body.concerned ?? null);
    expect(concerned).toBe(preview.body.concerned);
  });

  it('previews exactly whom the dispatch reaches for an area of several parts: a person in two parts once, none without a home', async () => {
    const west = destination(PHOENIX, 300, 135);
    const east = destination(west, 80, 90);
    const square: [number, number][] = [
      [west.lat - 0.1, west.lng - 0.1],
      [west.lat - 0.1, west.lng + 0.1],
      [west.lat + 0.1, west.lng + 0.1],
      [west.lat + 0.1, west.lng - 0.1],
    ];
    const near = { alertTypes: ['emergency'] as PreferenceAlertType[], sms: true };
    const users = {
      inBoth: await makeUser({ ...near, home: west }),
      inSquareOnly: await makeUser({ ...near, home: destination(west, 12, 45) }),
      inEastCircle: await makeUser({ ...near, home: destination(east, 5, 200) }),
      outside: await makeUser({ ...near, home: destination(west, 40, 0) }),
      noHome: await makeUser({ ...near, home: null }),
    };
    const body = {
      title: 'Boil-water notice for two districts',
      message: 'Boil tap water for one minute before drinking.',
      category: 'health',
      severity: 'high',
      area: {
        type: 'multi',
        parts: [
          { type: 'polygon', points: square, description: 'West district' },
          { type: 'circle', lat: west.lat, lng: west.lng, radiusKm: 10, description: 'West wells' },
          { type: 'circle', lat: east.lat, lng: east.lng, radiusKm: 15, description: 'East district' },
        ],
      },
      channels: ['sms'],
    };
    const preview = await call<AlertAudience>('POST', '/audience', adminToken, body);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      token: expect.any(String),
      concerned: 3,
      recipients: 3,
      held: 0,
      channels: { sms: { recipients: 3, held: 0, configured: true } },
      unreachable: { noChannel: 0, noDevice: 0, smsStopped: 0 },
      // each part on its own (issue #42): the person in the square and the west circle is in both counts
      byTarget: { area: 3, areaParts: [2, 1, 1], groups: [] },
    });

    const alert = await sendAlert(body);
    expect(alert.area).toEqual({
      type: 'multi',
      parts: [{ type: 'polygon', points: [...square, square[0]], description: 'West district' }, body.area.parts[1], body.area.parts[2]],
    });
    const rows = await waitFor('the delivery rows', async () => {
      const r = await deliveries(alert.id);
      return r.length === 3 ? r : null;
    });
    expect(rows.map((r) => `${r.user_id}:${r.channel}`).sort()).toEqual(
      [users.inBoth.id, users.inSquareOnly.id, users.inEastCircle.id].map((id) => `${id}:sms`).sort(),
    );
    const done = await waitFor('the recipients count', async () => (await call<AdminAlert>('GET', `/${alert.id}`, adminToken)).body.recipients ?? null);
    expect(done).toBe(preview.body.recipients);
  });

  it("the audience preview: admins only, the create body's validation, and an SMS channel without a webhook flagged", async () => {
    const user = await stack.identity.token({});
    const body = { title: 'Preview', message: 'Preview only.', category: 'health', severity: 'low', channels: ['sms'], everyone: true };
    expect((await call('POST', '/audience', null, body)).status).toBe(401);
    expect((await call('POST', '/audience', user, body)).status).toBe(403);
    expect((await call('POST', '/audience', adminToken, { ...body, channels: [] })).body).toMatchObject({
      code: 'validation_failed',
      message: 'Select at least one channel',
    });
    expect((await call('POST', '/audience', adminToken, { ...body, title: '' })).status).toBe(400);

    await withSettings({ webhook: { enabled: true, url: '' } }, async () => {
      const preview = await call<AlertAudience>('POST', '/audience', adminToken, body);
      expect(preview.body.channels.sms).toMatchObject({ configured: false, reason: 'No SMS webhook URL is set in Admin Settings: SMS will not be sent.' });
    });
  });

  it('Test Connection for the mail relay really talks to it; e-mail turned off in the settings is flagged and not sent', async () => {
    const ok = await call<{ ok: boolean; message: string }>('POST', '/admin/settings/test-email', adminToken, {});
    expect(ok.body).toEqual({ ok: true, message: expect.stringMatching(/^Mail relay 127\.0\.0\.1 accepted the connection/) });
    const closed = await call<{ ok: boolean; message: string }>('POST', '/admin/settings/test-email', adminToken, { url: 'smtp://127.0.0.1:9' });
    expect(closed.body).toMatchObject({ ok: false, message: expect.stringMatching(/^Mail relay check failed: .*ECONNREFUSED/) });

    const place = destination(YUMA, 150, 180);
    const u = await makeUser({ alertTypes: ['emergency'], home: place, email: true });
    await withSettings({ email: { enabled: false } }, async () => {
      const body = {
        title: 'Mail is off',
        message: 'This e-mail must not go out.',
        category: 'health',
        severity: 'high',
        lat: place.lat,
        lng: place.lng,
        radiusKm: 5,
        channels: ['email'],
      };
      expect((await call<AlertAudience>('POST', '/audience', adminToken, body)).body.channels.email).toEqual({
        recipients: 1,
        // the e-mail digest's (issue #40)
        held: 1,
        configured: false,
        reason: 'E-mail is turned off in Admin Settings: e-mails will not be sent.',
      });
      const alert = await sendAlert(body);
      expect(await sendHeldNow(stack, [alert.id])).toBe(1);
      const done = await settled(alert.id);
      expect(done.deliveryLabel).toBe('Failed');
      expect((await deliveries(alert.id))[0]).toMatchObject({ status: 'failed', error: 'E-mail is turned off in Admin Settings' });
      expect(smtp.received.filter((m) => m.to.includes(u.email))).toEqual([]);
    });
  });

  it('acts on failure: Retry failed and a fallback channel, each once however often pressed, audited; refused when it cannot help', async () => {
    const place = destination(TUCSON, 160, 90);
    const texter = await makeUser({ alertTypes: ['emergency'], home: place, sms: true });
    sms.script = [400]; // the webhook refuses the batch: every SMS fails for good
    const smsAlert = await sendAlert({
      title: 'Flooded underpass',
      message: 'Avoid the Grant Rd underpass.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
      channels: ['sms'],
    });
    expect((await settled(smsAlert.id)).deliveryLabel).toBe('Failed');
    // The operations view says why, counted by reason, and shows the failure in its first bucket.
    const failedView = (await call<AlertOperations>('GET', `/${smsAlert.id}/operations`, adminToken)).body;
    expect(failedView.failures).toEqual([{ channel: 'sms', reason: expect.stringMatching(/400/), failed: 1, retrying: 0 }]);
    expect(failedView.channels.sms).toMatchObject({ retrying: 0, nextAttemptAt: null, etaSeconds: null });
    expect(failedView.timeline.filter((b) => b.channel === 'sms').reduce((n, b) => n + b.failed, 0)).toBe(1);

    // The webhook works again: Retry failed sends it, under a new key; pressing it again finds nothing to retry.
    expect((await call('POST', `/${smsAlert.id}/retry`, adminToken, { channel: 'sms' })).body).toEqual({ retried: 1 });
    expect((await call('POST', `/${smsAlert.id}/retry`, adminToken, { channel: 'sms' })).body).toEqual({ retried: 0 });
    const resent = await waitFor('the retried SMS', async () =>
      (await deliveries(smsAlert.id))[0].status === 'sent' ? (await deliveries(smsAlert.id))[0] : null,
    );
    expect(resent).toMatchObject({ user_id: texter.id, status: 'sent', attempts: 2 });
    const calls = sms.received.filter((c) => c.body.recipients.includes(texter.phone!));
    expect(calls.map((c) => c.status)).toEqual([400, 200]);
    expect(calls[0].idempotencyKey).not.toBe(calls[1].idempotencyKey);
    expect((await call<AdminAlert>('GET', `/${smsAlert.id}`, adminToken)).body.deliveryLabel).toBe('Sent to provider');
    // Retried and sent: no failure left to explain; the chart keeps both outcomes.
    const fixedView = (await call<AlertOperations>('GET', `/${smsAlert.id}/operations`, adminToken)).body;
    expect(fixedView.failures).toEqual([]);
    expect(fixedView.timeline.reduce((n, b) => n + b.succeeded, 0)).toBe(1);

    // Push to a browser that is gone: the person is sent the alert by e-mail instead, once.
    const gone = await makeUser({ alertTypes: ['emergency'], home: place, push: true, email: true, script: [410] });
    const pushAlert = await sendAlert({
      title: 'Boil water notice',
      message: 'Boil tap water until further notice.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
      channels: ['push'],
    });
    await settled(pushAlert.id);
    expect((await call('POST', `/${pushAlert.id}/fallback`, adminToken, { channel: 'email' })).body).toEqual({ added: 1 });
    expect((await call('POST', `/${pushAlert.id}/fallback`, adminToken, { channel: 'email' })).body).toEqual({ added: 0 });
    await waitFor('the fallback e-mail', () => smtp.received.some((m) => m.to.includes(gone.email) && m.subject?.includes('Boil water notice')));
    const rows = await waitFor('the fallback delivery sent', async () => {
      const r = await deliveries(pushAlert.id);
      return r.some((d) => d.channel === 'email' && d.status === 'sent') ? r : null;
    });
    expect(rows.map((r) => [r.user_id, r.channel, r.status]).sort()).toEqual(
      [
        [gone.id, 'email', 'sent'],
        [gone.id, 'push', 'failed'],
      ].sort(),
    );
    expect(smtp.received.filter((m) => m.to.includes(gone.email))).toHaveLength(1);

    const trail = await call<AlertAuditEntry[]>('GET', `/${pushAlert.id}/audit`, adminToken);
    expect(trail.body.map((e) => [e.action, e.details])).toEqual([
      ['created', { source: 'admin', status: 'active' }],
      ['sent', {}],
      ['fallback', { channel: 'email', deliveries: 1 }],
    ]);

    // Refused, with the reason, when it cannot help.
    expect((await call('POST', `/${pushAlert.id}/retry`, adminToken, { channel: 'fax' })).body).toMatchObject({
      code: 'validation_failed',
      message: 'channel must be one of push, sms, email',
    });
    await withSettings({ email: { enabled: false } }, async () => {
      expect((await call('POST', `/${pushAlert.id}/fallback`, adminToken, { channel: 'email' })).body).toMatchObject({
        code: 'channel_not_configured',
        message: 'E-mail is turned off in Admin Settings: fix it there first.',
      });
    });
    expect((await call('POST', `/${pushAlert.id}/cancel`, adminToken)).status).toBe(200);
    expect((await call('POST', `/${pushAlert.id}/retry`, adminToken, { channel: 'push' })).body).toMatchObject({ code: 'invalid_alert_status' });
    expect((await call('POST', `/${randomUUID()}/retry`, adminToken, { channel: 'push' })).status).toBe(404);
  });

  it('retries a push that failed with 500 and then succeeds, with the same idempotency key', async () => {
    const u = await makeUser({ alertTypes: ['emergency'], home: TUCSON, push: true, script: [500] });
    const alert = await sendAlert({
      title: 'Boil water notice',
      message: 'Boil tap water before drinking until further notice.',
      category: 'health',
      severity: 'high',
      lat: TUCSON.lat,
      lng: TUCSON.lng,
      radiusKm: 10,
      channels: ['push'],
    });
    await settled(alert.id);
    const [row] = await deliveries(alert.id);
    expect(row).toMatchObject({ user_id: u.id, status: 'sent', attempts: 2 });
    const tries = push.for(u.subscriptionId!);
    expect(tries.map((t) => t.status)).toEqual([500, 201]);
    expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set([row.id]));
    // The 500 counted against the endpoint; the success that followed starts its count afresh.
    await waitFor('the endpoint healthy again', async () => {
      const [sub] = await stack.db.query(`SELECT failures, failing_since FROM alerts.push_subscriptions WHERE user_id = $1`, [u.id]);
      return sub.failures === 0 && sub.failing_since === null ? sub : null;
    });
  });

  it('retries an SMS batch the webhook answered with 500, and then sends it once, with the same idempotency key', async () => {
    const place = destination(TUCSON, 40, 300);
    const u = await makeUser({ alertTypes: ['emergency'], home: place, sms: true });
    sms.script = [500];
    const before = sms.received.length;
    const alert = await sendAlert({
      title: 'Water outage',
      message: 'Water is off on the west side until 4 pm.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 10,
      channels: ['sms'],
    });
    await settled(alert.id);
    const [row] = await deliveries(alert.id);
    expect(row).toMatchObject({ user_id: u.id, status: 'sent', attempts: 2 });
    const tries = sms.received.slice(before).filter((c) => c.body.recipients.includes(u.phone!));
    expect(tries.map((t) => t.status)).toEqual([500, 200]);
    expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set([`sms:${alert.id}:0`]));
  });

  it('shows a delivery that failed transiently as retrying, with its reason and next attempt, live, until it goes out', async () => {
    const place = destination(TUCSON, 48, 340);
    const u = await makeUser({ alertTypes: ['emergency'], home: place, sms: true });
    sms.script = [{ status: 429, retryAfter: '4' }];
    const alert = await sendAlert({
      title: 'Gas leak',
      message: 'Stay away from 5th Ave between 2nd and 4th St.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 10,
      channels: ['sms'],
    });
    const waiting = await waitFor('the SMS waiting for its retry', async () => {
      const view = (await call<AlertOperations>('GET', `/${alert.id}/operations`, adminToken)).body;
      return view.channels.sms?.retrying === 1 ? view : null;
    });
    // The retry is the webhook's Retry-After (4 s) after the failure, and the reason is the webhook's answer.
    const wait = Date.parse(waiting.channels.sms!.nextAttemptAt!) - Date.parse(waiting.at);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(4000);
    expect(waiting.failures).toEqual([{ channel: 'sms', reason: expect.stringMatching(/429/), failed: 0, retrying: 1 }]);
    expect(waiting.channels.sms!.etaSeconds).toBeNull(); // nothing is on its way until the retry
    expect(waiting.timeline.reduce((n, b) => n + b.retried, 0)).toBe(1);
    const meanwhile = (await call<AdminAlert>('GET', `/${alert.id}`, adminToken)).body;
    expect(meanwhile.summary.sms).toMatchObject({ pending: 1, retrying: 1 });
    expect(meanwhile.deliveryLabel).toBe('Pending');

    await settled(alert.id);
    expect((await deliveries(alert.id))[0]).toMatchObject({ user_id: u.id, status: 'sent', attempts: 2, next_attempt_at: null });
    const after = (await call<AlertOperations>('GET', `/${alert.id}/operations`, adminToken)).body;
    expect(after.channels.sms).toMatchObject({ retrying: 0, nextAttemptAt: null });
    expect(after.failures).toEqual([]);
    expect(after.timeline.reduce((n, b) => ({ succeeded: n.succeeded + b.succeeded, retried: n.retried + b.retried }), { succeeded: 0, retried: 0 })).toEqual({
      succeeded: 1,
      retried: 1,
    });
    expect((await call<AdminAlert>('GET', `/${alert.id}`, adminToken)).body.summary.sms).toMatchObject({ sent: 1, pending: 0, retrying: 0 });
    const userToken = await stack.identity.token({});
    expect((await call('GET', `/${alert.id}/operations`, userToken)).status).toBe(403);
    expect((await call('GET', `/${randomUUID()}/operations`, adminToken)).body).toMatchObject({ code: 'alert_not_found' });
  });

  it("waits the Retry-After an SMS webhook's 429 asks for (2 s), not the 1 s exponential backoff, then sends once", async () => {
    const place = destination(TUCSON, 45, 320);
    const u = await makeUser({ alertTypes: ['emergency'], home: place, sms: true });
    sms.script = [{ status: 429, retryAfter: '2' }];
    const before = sms.received.length;
    const alert = await sendAlert({
      title: 'Boil water notice',
      message: 'Boil tap water before drinking until further notice.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 10,
      channels: ['sms'],
    });
    await settled(alert.id);
    const [row] = await deliveries(alert.id);
    expect(row).toMatchObject({ user_id: u.id, status: 'sent', attempts: 2 });
    const tries = sms.received.slice(before).filter((c) => c.body.recipients.includes(u.phone!));
    expect(tries.map((t) => t.status)).toEqual([429, 200]);
    // The retry was scheduled 2 s after the failure (the exponential first retry would be 1 s).
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(1900);
  });

  it("waits the Retry-After a push service's 429 asks for (2 s), not the 1 s exponential backoff, then sends once", async () => {
    const place = destination(TUCSON, 55, 20);
    const u = await makeUser({ alertTypes: ['emergency'], home: place, push: true, script: [{ status: 429, retryAfter: '2' }] });
    const alert = await sendAlert({
      title: 'Flash flood warning',
      message: 'Washes are running; do not cross flooded roads.',
      category: 'health',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 10,
      channels: ['push'],
    });
    await settled(alert.id);
    const [row] = await deliveries(alert.id);
    expect(row).toMatchObject({ user_id: u.id, status: 'sent', attempts: 2 });
    const tries = push.for(u.subscriptionId!);
    expect(tries.map((t) => t.status)).toEqual([429, 201]);
    expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set([row.id]));
    // The retry was scheduled 2 s after the failure (the exponential first retry would be 1 s).
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(1900);
  });

  it('does not retry a push refused with 400, and removes a subscription answered with 410', async () => {
    const refused = await makeUser({ alertTypes: ['emergency'], home: FLAGSTAFF, push: true, script: [400] });
    const gone = await makeUser({ alertTypes: ['emergency'], home: FLAGSTAFF, push: true, script: [410] });
    const alert = await sendAlert({
      title: 'Heat advisory',
      message: 'Extreme heat expected this afternoon; stay hydrated.',
      category: 'health',
      severity: 'medium',
      lat: FLAGSTAFF.lat,
      lng: FLAGSTAFF.lng,
      radiusKm: 10,
      channels: ['push'],
    });
    const done = await settled(alert.id);
    expect(done.deliveryLabel).toBe('Failed');
    const rows = await deliveries(alert.id);
    expect(rows.find((r) => r.user_id === refused.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows.find((r) => r.user_id === gone.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(push.for(refused.subscriptionId!).map((t) => t.status)).toEqual([400]);
    expect(push.for(gone.subscriptionId!).map((t) => t.status)).toEqual([410]);
    const subs = await stack.db.query(`SELECT user_id FROM alerts.push_subscriptions WHERE user_id = ANY($1::uuid[])`, [[refused.id, gone.id]]);
    expect(subs.map((s) => s.user_id)).toEqual([refused.id]);
  });

  it('does not retry an SMS batch the webhook refuses with 400', async () => {
    const u = await makeUser({ alertTypes: ['emergency'], home: YUMA, sms: true });
    sms.script = [400];
    const before = sms.received.length;
    const alert = await sendAlert({
      title: 'Shelter in place',
      message: 'Police activity: stay indoors and away from windows.',
      category: 'public_safety',
      severity: 'high',
      lat: YUMA.lat,
      lng: YUMA.lng,
      radiusKm: 10,
      channels: ['sms'],
    });
    await settled(alert.id);
    const [row] = await deliveries(alert.id);
    expect(row).toMatchObject({ user_id: u.id, status: 'failed', attempts: 1 });
    expect(sms.received.length - before).toBe(1);
    const queue = new Queue(JOB_QUEUE[JobName.SmsSend], { connection: { url: redis.url } as never, prefix: queuePrefix(redis.prefix) });
    try {
      const job = await queue.getJob(JobIds.channelBatch('sms', alert.id, 0));
      expect(job?.attemptsMade).toBe(1);
      expect(await job?.getState()).toBe('failed');
    } finally {
      await queue.close();
    }
  });

  it('holds a medium alert during quiet hours and lets a critical one through', async () => {
    const place = destination(YUMA, 80, 90);
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const now = Date.now();
    const quietHours = { enabled: true, start: hhmm(new Date(now - 3600_000)), end: hhmm(new Date(now + 3600_000)), timeZone: 'UTC' };
    const u = await makeUser({ alertTypes: ['emergency'], home: place, push: true, quietHours });
    const base = { category: 'health', lat: place.lat, lng: place.lng, radiusKm: 10, channels: ['push'] };

    const medium = await sendAlert({
      ...base,
      title: 'Pollen count high',
      message: 'Tree pollen is high today; take care if you have allergies.',
      severity: 'medium',
    });
    const held = await waitFor('the held delivery', async () => (await deliveries(medium.id))[0]);
    expect(held.status).toBe('pending');
    expect(Math.abs(new Date(held.not_before!).getTime() - (now + 3600_000))).toBeLessThan(61_000);
    const queue = new Queue(JOB_QUEUE[JobName.PushSend], { connection: { url: redis.url } as never, prefix: queuePrefix(redis.prefix) });
    try {
      const job = await waitFor('the delayed push job', () => queue.getJob(JobIds.channelBatch('push', medium.id, 0)));
      expect(await job.getState()).toBe('delayed');
    } finally {
      await queue.close();
    }

    const critical = await sendAlert({
      ...base,
      title: 'Gas leak: evacuate',
      message: 'A gas leak was reported; leave the area immediately.',
      severity: 'critical',
    });
    await settled(critical.id);
    expect((await deliveries(critical.id))[0]).toMatchObject({ status: 'sent', not_before: null });
    const received = push.for(u.subscriptionId!);
    expect(received.map((r) => r.payload?.alertId)).toEqual([critical.id]);
    expect(received[0]).toMatchObject({ urgency: 'high' });
    expect(received[0].payload).toMatchObject({ priority: 10, requireInteraction: true, channel: 'critical-alerts' });
    expect((await deliveries(medium.id))[0].status).toBe('pending');
  });
  it('sends an hourly-digest user the alerts that came due together as one message per channel', async () => {
    const place = destination(FLAGSTAFF, 70, 200);
    const u = await makeUser({ alertTypes: ['weather'], home: place, push: true, sms: true, email: true, frequency: 'hourly' });
    // A Spanish reader beside them: each alert of their digest in Spanish where it has it.
    const es = await makeUser({ alertTypes: ['weather'], home: place, push: true, sms: true, email: true, frequency: 'hourly', language: 'es' });
    const base = { category: 'weather', lat: place.lat, lng: place.lng, radiusKm: 5, channels: ['push', 'sms', 'email'] };
    const spanishDust = { title: 'Tormenta de polvo', message: 'Visibilidad casi nula en la I-17; detengase a un lado.' };
    const dust = await sendAlert({
      ...base,
      title: 'Dust storm warning',
      message: 'Visibility near zero on I-17; pull aside, stay alive.',
      severity: 'high',
      locationName: 'I-17 north of Camp Verde',
      translations: { es: spanishDust },
    });
    const wind = await sendAlert({ ...base, title: 'Wind advisory', message: 'Gusts to 45 mph this afternoon.', severity: 'medium' });
    const frost = await sendAlert({ ...base, title: 'Frost tonight', message: 'Cover sensitive plants.', severity: 'low' });
    const all = [dust, wind, frost];
    const rows = async () => (await Promise.all(all.map((a) => deliveries(a.id)))).flat().filter((r) => r.user_id === u.id);
    await waitFor('nine held deliveries', async () => ((await rows()).filter((r) => r.status === 'pending' && r.not_before).length === 9 ? true : null));
    await waitFor('their nine held deliveries', async () =>
      (await Promise.all(all.map((a) => deliveries(a.id)))).flat().filter((r) => r.user_id === es.id && r.status === 'pending' && r.not_before).length === 9
        ? true
        : null,
    );

    // Frost is called off before the hour; the other two come due together.
    expect((await call('POST', `/${frost.id}/cancel`, adminToken)).status).toBe(200);
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE user_id = ANY($1::uuid[])`, [[u.id, es.id]]);
    const queues = (['push', 'sms', 'email'] as const).map(
      (c) =>
        new Queue(JOB_QUEUE[c === 'push' ? JobName.PushSend : c === 'sms' ? JobName.SmsSend : JobName.EmailSend], {
          connection: { url: redis.url } as never,
          prefix: queuePrefix(redis.prefix),
        }),
    );
    // Their jobs: the other users' e-mails of these alerts are held too (the e-mail digest, issue #40), in batches of their own.
    const theirs = new Set(
      (await stack.db.query<{ id: string }>(`SELECT id FROM alerts.alert_deliveries WHERE user_id = ANY($1::uuid[])`, [[u.id, es.id]])).map((r) => r.id),
    );
    try {
      for (const [i, channel] of (['push', 'sms', 'email'] as const).entries()) {
        const mine = new Set(
          (
            await stack.db.query<{ id: string }>(`SELECT id FROM alerts.alert_deliveries WHERE user_id = ANY($1::uuid[]) AND channel = $2`, [
              [u.id, es.id],
              channel,
            ])
          ).map((r) => r.id),
        );
        // one per alert, or more where their rows share a batch of the others' held e-mails and fell into two
        const held = await waitFor(`the held ${channel} jobs`, async () => {
          const jobs = (await queues[i].getDelayed()).filter(
            (j) => all.some((a) => a.id === j.data.alertId) && (j.data.deliveryIds as string[]).some((id) => theirs.has(id)),
          );
          const covered = new Set(jobs.flatMap((j) => j.data.deliveryIds as string[]));
          return jobs.length >= 3 && [...mine].every((id) => covered.has(id)) ? jobs : null;
        });
        for (const job of held) {
          expect(job.data.held).toBe(true);
          await job.promote();
        }
      }
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
    const final = await waitFor('every delivery settled', async () => {
      const r = await rows();
      return r.every((d) => !['pending', 'sending'].includes(d.status)) ? r : null;
    });

    const merged = await stack.db.query<{ id: string; alert_id: string; channel: string; status: string; merged_into: string | null }>(
      `SELECT id, alert_id, channel, status, merged_into FROM alerts.alert_deliveries WHERE user_id = $1`,
      [u.id],
    );
    expect(
      final
        .filter((d) => d.status === 'cancelled')
        .map((d) => d.channel)
        .sort(),
    ).toEqual(['email', 'push', 'sms']);
    expect(merged.filter((d) => d.alert_id === frost.id).every((d) => d.status === 'cancelled')).toBe(true);
    for (const channel of ['push', 'sms', 'email']) {
      const sent = merged.filter((d) => d.channel === channel && d.alert_id !== frost.id);
      expect(sent.map((d) => d.status)).toEqual(['sent', 'sent']);
      // One of the two led the message; the other was carried by it.
      expect(sent.filter((d) => d.merged_into === null)).toHaveLength(1);
      expect(sent.find((d) => d.merged_into)!.merged_into).toBe(sent.find((d) => !d.merged_into)!.id);
    }

    const pushes = push.for(u.subscriptionId!);
    expect(pushes).toHaveLength(1);
    expect(pushes[0].payload).toMatchObject({
      alertId: dust.id,
      alertIds: [dust.id, wind.id],
      title: '2 alerts in your area',
      body: 'High: Dust storm warning\nMedium: Wind advisory',
      url: '/dashboard/alerts',
    });
    const texts = sms.received.filter((c) => c.body.recipients.includes(u.phone!));
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toMatchObject({ title: '2 alerts in your area', recipients: [u.phone] });
    expect(texts[0].body.message).toBe(
      '[High] Dust storm warning (I-17 north of Camp Verde): Visibility near zero on I-17; pull aside, stay alive.\n\n[Medium] Wind advisory: Gusts to 45 mph this afternoon.',
    );
    const mails = smtp.received.filter((m) => m.to.includes(u.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('[High] 2 alerts in your area');
    expect(mails[0].raw).toContain('Dust storm warning');
    expect(mails[0].raw).toContain('Wind advisory');
    expect(mails[0].raw).not.toContain('Frost tonight');
    expect(mails[0].raw).not.toContain('Tormenta de polvo');

    // The Spanish reader's digest: the dust storm in Spanish, the wind advisory (no Spanish text) in English.
    await waitFor('their digest settled', async () => {
      const r = (await Promise.all(all.map((a) => deliveries(a.id)))).flat().filter((d) => d.user_id === es.id);
      return r.every((d) => !['pending', 'sending'].includes(d.status)) ? true : null;
    });
    expect(push.for(es.subscriptionId!).map((p) => p.payload)).toEqual([
      expect.objectContaining({ title: '2 alertas en su zona', body: 'Alta: Tormenta de polvo\nMedia: Wind advisory', lang: 'es' }),
    ]);
    const spanishTexts = sms.received.filter((c) => c.body.recipients.includes(es.phone!));
    expect(spanishTexts.map((c) => c.body)).toEqual([
      expect.objectContaining({
        recipients: [es.phone],
        message: `[Alta] Tormenta de polvo (I-17 north of Camp Verde): ${spanishDust.message}\n\n[Media] Wind advisory: Gusts to 45 mph this afternoon.`,
      }),
    ]);
    const spanishMails = smtp.received.filter((m) => m.to.includes(es.email));
    expect(spanishMails).toHaveLength(1);
    const spanishBody = spanishMails[0].raw.replace(/=\r?\n/g, '');
    expect(spanishBody).toContain('Tormenta de polvo');
    expect(spanishBody).toContain(spanishDust.message);
    expect(spanishBody).toContain('Wind advisory');
    expect(spanishBody).not.toContain('Dust storm warning');
    expect(spanishMails[0].subject).toBe('[Alta] 2 alertas en su zona');
    for (const english of ['Severity:', 'Category:', 'View the alert', 'All your alerts', 'the most severe first']) expect(spanishBody).not.toContain(english);

    // The browser's receipt for the digest speaks for both alerts.
    const receipt = pushes[0].payload!.receipt;
    expect((await call('POST', `/deliveries/${pushes[0].payload!.deliveryId}/receipt`, null, { event: 'delivered', token: receipt.delivered })).status).toBe(
      200,
    );
    const pushRows = (await rows()).filter((d) => d.channel === 'push' && d.status !== 'cancelled');
    expect(pushRows.map((d) => d.status)).toEqual(['delivered', 'delivered']);

    // Admins see which deliveries went out in a digest.
    for (const a of [dust, wind, frost]) {
      const listed = await call<{ items: { userId: string; channel: string; inDigest: boolean }[] }>('GET', `/${a.id}/deliveries?pageSize=100`, adminToken);
      const mine = listed.body.items.filter((d) => d.userId === u.id);
      expect(mine.map((d) => d.inDigest)).toEqual([a !== frost, a !== frost, a !== frost]);
    }
  });

  it('tells every user an alert concerns on their open screen once, reached by a channel or not, held in their quiet hours', async () => {
    const place = destination(TUCSON, 60, 135);
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const now = Date.now();
    const quietHours = { enabled: true, start: hhmm(new Date(now - 3600_000)), end: hhmm(new Date(now + 3600_000)), timeZone: 'UTC' };
    // The new user's defaults: push on but no browser subscribed, no SMS or email. No delivery can reach them.
    const deviceless = await makeUser({ alertTypes: ['emergency'], home: place, push: true, noDevice: true });
    const quiet = await makeUser({ alertTypes: ['emergency'], home: place, push: true, noDevice: true, quietHours });
    const quietWithEmail = await makeUser({ alertTypes: ['emergency'], home: place, email: true, quietHours });
    const otherTopic = await makeUser({ alertTypes: ['traffic'], home: place, push: true, noDevice: true });
    const users = [deviceless, quiet, quietWithEmail, otherTopic];
    const heard = new Map<string, NewAlertEvent[]>(users.map((u) => [u.id, []]));
    for (const u of users) (await socketOf(u.token)).on('alert:new', (e: NewAlertEvent) => heard.get(u.id)!.push(e));

    const base = { category: 'health', lat: place.lat, lng: place.lng, radiusKm: 10, channels: ['push', 'email'] };
    const medium = await sendAlert({ ...base, title: 'Air quality alert', message: 'Ozone is high this afternoon; limit time outdoors.', severity: 'medium' });
    const critical = await sendAlert({ ...base, title: 'Shelter now', message: 'A chemical plume is moving over the area; go indoors.', severity: 'critical' });
    const events = (u: TestUser) => heard.get(u.id)!.filter((e) => e.id === medium.id || e.id === critical.id);
    await waitFor('every eligible screen told of both alerts', () => [deviceless, quiet, quietWithEmail].every((u) => events(u).length >= 2));
    // Both dispatches are over (two dispatch jobs may run at once, in either order): nothing else will come.
    // the medium alert keeps a held delivery (quiet hours), so it is dispatched, not settled
    await waitFor('the medium alert dispatched', async () =>
      (await call<AdminAlert>('GET', `/${medium.id}`, adminToken)).body.recipients !== null ? true : null,
    );
    await settled(critical.id);
    await new Promise((r) => setTimeout(r, 300));

    const flags = (u: TestUser) => Object.fromEntries(events(u).map((e) => [e.id, e.held]));
    expect(events(deviceless)).toHaveLength(2);
    expect(flags(deviceless)).toEqual({ [medium.id]: false, [critical.id]: false });
    expect(events(deviceless).find((e) => e.id === medium.id)).toMatchObject({ title: 'Air quality alert', severity: 'medium', status: 'active' });
    // Quiet hours: the medium alert is listed but held (no sound, no notification); the critical one is not.
    expect(events(quiet)).toHaveLength(2);
    expect(flags(quiet)).toEqual({ [medium.id]: true, [critical.id]: false });
    expect(flags(quietWithEmail)).toEqual({ [medium.id]: true, [critical.id]: false });
    expect(events(otherTopic)).toEqual([]);

    // Only the user with a reachable channel has deliveries; the held one waits exactly as the event said.
    const rows = [...(await deliveries(medium.id)), ...(await deliveries(critical.id))].filter((r) => users.some((u) => u.id === r.user_id));
    expect(rows.map((r) => `${r.user_id}:${r.channel}`).sort()).toEqual([`${quietWithEmail.id}:email`, `${quietWithEmail.id}:email`]);
    expect(rows.find((r) => r.not_before)?.status).toBe('pending');

    // A re-run of the dispatch (as after a crash) tells nobody again.
    const queue = new Queue(JOB_QUEUE[JobName.AlertDispatch], { connection: { url: redis.url } as never, prefix: queuePrefix(redis.prefix) });
    try {
      const job = await queue.add(JobName.AlertDispatch, { alertId: medium.id, requestedAt: new Date().toISOString() }, { jobId: `rerun-${medium.id}` });
      await waitFor('the re-run to finish', async () => ((await job.getState()) === 'completed' ? true : null));
    } finally {
      await queue.close();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(events(deviceless)).toHaveLength(2);
  });
});

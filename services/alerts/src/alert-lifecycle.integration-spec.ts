import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { io, Socket } from 'socket.io-client';
import {
  AdminAlert,
  AlertPreferences,
  AlertSummary,
  AlertVersion,
  DeliveryChannel,
  JOB_QUEUE,
  JobName,
  LIFECYCLE_WORDS,
  PreferenceAlertType,
  queuePrefix,
  ReaderAlertEvent,
  UserAlert,
} from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { gatewayService } from '../../gateway/src/service';
import { dispatcherService } from './dispatcher.service';
import { alertsService } from './service';
import { SweepHandler } from './maintenance/sweep.handler';
import { DispatchStack } from './testing/dispatch-stack';
import { sendHeldNow } from './testing/held-deliveries';
import { validateCap } from './testing/cap-schema';
import { strictParse } from './testing/strict-xml';

const MESA = { lat: 33.4152, lng: -111.8315 };

jest.setTimeout(90_000);

/**
 * The alert's life after it went out (issue 19): an update to a moved area tells the people it reached, alerts the
 * people newly inside and tells those left outside, nobody twice; the all-clear tells everyone reached, after their
 * quiet hours even when the alert was critical; the screens and the CAP feed follow each step.
 */
describe('alert lifecycle: update and all-clear, end to end', () => {
  const stack = new DispatchStack();
  const { push, sms, smtp } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let gateway: RunningService<unknown>;
  let adminToken: string;
  const sockets: Socket[] = [];
  let phoneSeq = 0;

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    gateway = await startTestService(gatewayService, stack.vars);
    adminToken = await stack.identity.token({ id: randomUUID(), email: 'lifecycle-admin@beacon.local', role: 'admin' });
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await stack.close(gateway, dispatcher, alerts);
  });

  const call = jsonClient(() => alerts.url);

  async function makeUser(o: {
    home: { lat: number; lng: number };
    push?: boolean;
    sms?: boolean;
    email?: boolean;
    quietHours?: AlertPreferences['quietHours'];
    language?: string;
  }) {
    const id = randomUUID();
    const email = `life-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const phone = o.sms ? `+1480555${String(++phoneSeq).padStart(4, '0')}` : null;
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, {
      alertTypes: ['traffic'] as PreferenceAlertType[],
      severityThreshold: 'low',
      home: o.home,
      radiusMiles: 50,
      methods: { push: o.push ?? false, sms: o.sms ?? false, email: o.email ?? false, voice: true },
      phoneNumber: phone,
      ...(o.quietHours ? { quietHours: o.quietHours } : {}),
      ...(o.language ? { language: o.language } : {}),
    });
    expect(saved.status).toBe(200);
    let subscriptionId: string | null = null;
    if (o.push) {
      const sub = push.subscribe();
      expect((await call('POST', '/me/push-subscriptions', token, sub.json)).status).toBe(201);
      subscriptionId = sub.id;
    }
    return { id, email, token, phone, subscriptionId };
  }
  type User = Awaited<ReturnType<typeof makeUser>>;

  /** Every message a user got, per channel, as [title, body] in arrival order. */
  function received(u: User): Record<Exclude<DeliveryChannel, 'voice'>, [string, string][]> {
    return {
      push: u.subscriptionId
        ? push
            .for(u.subscriptionId)
            .filter((r) => r.status === 201 && r.payload)
            .map((r) => [r.payload!.title, r.payload!.body])
        : [],
      sms: sms.received.filter((r) => r.status < 300 && u.phone && r.body.recipients.includes(u.phone)).map((r) => [r.body.title, r.body.message]),
      email: smtp.received.filter((m) => m.to.includes(u.email)).map((m) => [m.subject ?? '', m.raw]),
    };
  }

  /** An alert sent as the create form sends it (its own idempotency key); 201 expected. */
  async function sendAlert(body: Record<string, unknown>) {
    const res = await call<AdminAlert>('POST', '', adminToken, body, { 'idempotency-key': randomUUID() });
    expect(res.status).toBe(201);
    return res;
  }

  const settled = (alertId: string) =>
    waitFor(`alert ${alertId} to settle`, async () => {
      const res = await call<AdminAlert>('GET', `/${alertId}`, adminToken);
      return res.body.recipients !== null && res.body.deliveryLabel !== 'Pending' ? res.body : null;
    });

  /** Waits until the version's fan-out ran and nothing of the alert is on its way any more (held ones apart). */
  const versionDone = (alertId: string, version: number) =>
    waitFor(`version ${version} of ${alertId} fanned out`, async () => {
      const [v] = await stack.db.query<{ dispatched_at: Date | null }>(`SELECT dispatched_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = $2`, [
        alertId,
        version,
      ]);
      if (!v?.dispatched_at) return null;
      const [{ n }] = await stack.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status IN ('pending', 'sending') AND (not_before IS NULL OR not_before <= now())`,
        [alertId],
      );
      return n === 0 ? true : null;
    });

  function socketOf(token: string): Promise<Socket> {
    const s = io(gateway.origin, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(s);
    return new Promise((resolve, reject) => {
      s.on('connect', () => resolve(s));
      s.on('connect_error', reject);
    });
  }

  async function cap(alertId: string) {
    const res = await fetch(`${alerts.url}/cap/alerts/${alertId}.xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(validateCap(xml)).toEqual([]);
    return strictParse(xml);
  }

  it('an update to a moved area: those reached are told, those newly inside alerted, those left outside told, nobody twice', async () => {
    const west = destination(MESA, 40, 270);
    const east = destination(MESA, 40, 90);
    const users = {
      stays: await makeUser({ home: MESA, push: true, sms: true }),
      leaves: await makeUser({ home: west, push: true, email: true }),
      arrives: await makeUser({ home: east, push: true, sms: true }),
      never: await makeUser({ home: destination(MESA, 300, 0), push: true }),
    };
    const userSocket = await socketOf(users.arrives.token);
    const told: AlertSummary[] = [];
    userSocket.on('alert:updated', (s: AlertSummary) => told.push(s));

    // A circle over Mesa and the west side, then moved east: `stays` is inside both, `leaves` only the first.
    const sent = await sendAlert({
      title: 'Wrong-way driver on US-60',
      message: 'A wrong-way driver is heading west on US-60. Stay off the freeway.',
      category: 'traffic',
      severity: 'high',
      lat: destination(MESA, 20, 270).lat,
      lng: destination(MESA, 20, 270).lng,
      radiusKm: 25,
      channels: ['push', 'sms', 'email'],
    });
    const id = sent.body.id;
    // `leaves` is e-mailed below critical: the e-mail digest's hour (issue #40) comes now
    expect(await sendHeldNow(stack, [id])).toBe(1);
    await settled(id);
    expect(received(users.stays).push).toHaveLength(1);
    expect(received(users.leaves).push).toHaveLength(1);
    expect(received(users.arrives).push).toHaveLength(0);

    // Bad updates change nothing.
    expect((await call('POST', `/${id}/update`, adminToken, { title: 'Wrong-way driver on US-60' })).body).toMatchObject({ code: 'nothing_to_update' });
    expect((await call('POST', `/${id}/update`, adminToken, { lat: 33.4 })).body).toMatchObject({ code: 'incomplete_location' });
    expect((await call('POST', `/${id}/update`, adminToken, { title: 'Hi' })).status).toBe(400);
    expect((await call('POST', `/${randomUUID()}/update`, adminToken, { title: 'Wrong-way driver now on Loop 202' })).status).toBe(404);
    expect((await call('POST', `/${id}/update`, users.stays.token, { title: 'Wrong-way driver now on Loop 202' })).status).toBe(403);
    expect((await call('POST', `/${id}/update`, adminToken, { title: 'Wrong-way driver now on Loop 202', version: 7 })).body).toMatchObject({
      statusCode: 409,
      code: 'alert_update_conflict',
    });

    const centre = destination(MESA, 20, 90);
    const updated = await call<AdminAlert>('POST', `/${id}/update`, adminToken, {
      title: 'Wrong-way driver now on Loop 202',
      lat: centre.lat,
      lng: centre.lng,
      radiusKm: 25,
      version: 1,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ version: 2, status: 'active', title: 'Wrong-way driver now on Loop 202' });
    await versionDone(id, 2);
    expect(await sendHeldNow(stack, [id])).toBe(1);
    await versionDone(id, 2);

    const stays = received(users.stays);
    expect(stays.push.map(([t]) => t)).toEqual(['Wrong-way driver on US-60', 'Update: Wrong-way driver now on Loop 202']);
    expect(stays.sms.map(([t]) => t)).toEqual(['Wrong-way driver on US-60', 'Update: Wrong-way driver now on Loop 202']);
    const leaves = received(users.leaves);
    expect(leaves.push).toEqual([
      ['Wrong-way driver on US-60', 'A wrong-way driver is heading west on US-60. Stay off the freeway.'],
      ['Update: Wrong-way driver now on Loop 202', LIFECYCLE_WORDS.en.leftArea],
    ]);
    expect(leaves.email.map(([s]) => s)).toEqual([
      expect.stringContaining('Wrong-way driver on US-60'),
      expect.stringContaining('Update: Wrong-way driver now on Loop 202'),
    ]);
    // Newly inside: the alert as new, once per channel.
    const arrives = received(users.arrives);
    expect(arrives.push.map(([t]) => t)).toEqual(['Wrong-way driver now on Loop 202']);
    expect(arrives.sms.map(([t]) => t)).toEqual(['Wrong-way driver now on Loop 202']);
    expect(received(users.never).push).toEqual([]);
    // Exactly one delivery per person, channel and version in the database too.
    const rows = await stack.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 GROUP BY user_id, channel, round HAVING count(*) > 1`,
      [id],
    );
    expect(rows).toEqual([]);

    // The user's open screen was told, and their list shows the new version.
    const live = await waitFor('the user screen told of the update', () => told.find((s) => s.id === id && s.version === 2));
    // what it changed (issue #40), as the list says it too
    const change = { version: 2, kind: 'update', fields: ['title', 'area'], severityFrom: null, at: expect.any(String) };
    expect(live.lastChange).toEqual(change);
    const mine = await call<{ items: UserAlert[] }>('GET', '/me/alerts', users.arrives.token);
    expect(mine.body.items.find((a) => a.id === id)).toMatchObject({ title: 'Wrong-way driver now on Loop 202', version: 2, lastChange: live.lastChange });

    // The history keeps both versions.
    const versions = await call<AlertVersion[]>('GET', `/${id}/versions`, adminToken);
    expect(versions.body.map((v) => [v.version, v.kind, v.title, v.changed])).toEqual([
      [1, 'original', 'Wrong-way driver on US-60', []],
      [2, 'update', 'Wrong-way driver now on Loop 202', ['title', 'area']],
    ]);
    expect(versions.body[1]).toMatchObject({ actorEmail: 'lifecycle-admin@beacon.local', notified: expect.any(Number) });

    // CAP: an Update that references the original Alert.
    const texts = await cap(id);
    expect(texts.get('msgType')).toEqual(['Update']);
    expect(texts.get('identifier')).toEqual([`${id}-v2`]);
    expect(texts.get('references')?.[0]).toMatch(new RegExp(`^beacon@localhost,${id},\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\+00:00$`));

    // The Atom feed: the same entry (its id), updated in place, now titled and timed as version 2.
    const atom = await (await fetch(`${alerts.url}/cap/alerts.atom`)).text();
    const entries = atom.split('<entry>').slice(1);
    const mineEntries = entries.filter((e) => e.includes(`urn:uuid:${id}`));
    expect(mineEntries).toHaveLength(1);
    expect(mineEntries[0]).toContain('<title>Wrong-way driver now on Loop 202</title>');
    const [v2] = await stack.db.query<{ created_at: Date }>(`SELECT created_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = 2`, [id]);
    expect(mineEntries[0]).toContain(`<updated>${v2.created_at.toISOString()}</updated>`);
    expect(mineEntries[0]).toContain(`<published>${new Date(sent.body.sentAt!).toISOString()}</published>`);
  });

  it('the all-clear reaches everyone reached, after their quiet hours even for a critical alert, and ends the alert live', async () => {
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quietHours = { enabled: true, start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 3600_000)), timeZone: 'UTC' };
    const place = destination(MESA, 150, 180);
    const users = {
      awake: await makeUser({ home: place, push: true }),
      asleep: await makeUser({ home: place, push: true, quietHours }),
    };
    const screen = await socketOf(users.asleep.token);
    const told: AlertSummary[] = [];
    screen.on('alert:updated', (s: AlertSummary) => told.push(s));

    const sent = await sendAlert({
      title: 'Wrong-way driver on I-8',
      message: 'Wrong-way driver eastbound on I-8 near Gila Bend.',
      category: 'traffic',
      severity: 'critical',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 10,
      channels: ['push'],
    });
    const id = sent.body.id;
    await settled(id);
    // Critical: the quiet hours did not hold the alert itself.
    expect(received(users.asleep).push).toHaveLength(1);

    expect((await call('POST', `/${id}/all-clear`, adminToken, { message: 'x'.repeat(501) })).status).toBe(400);
    const ended = await call<AdminAlert>('POST', `/${id}/all-clear`, adminToken, { message: 'The driver was stopped at milepost 115. Roads are open.' });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: 'all_clear', version: 2, allClear: { message: 'The driver was stopped at milepost 115. Roads are open.' } });
    expect((await call('POST', `/${id}/all-clear`, adminToken, {})).body).toMatchObject({ statusCode: 409, code: 'invalid_alert_status' });
    expect((await call('POST', `/${id}/update`, adminToken, { title: 'Too late for an update' })).body).toMatchObject({ code: 'invalid_alert_status' });

    await versionDone(id, 2);
    expect(received(users.awake).push).toEqual([
      ['Wrong-way driver on I-8', 'Wrong-way driver eastbound on I-8 near Gila Bend.'],
      ['All clear: Wrong-way driver on I-8', 'The driver was stopped at milepost 115. Roads are open.'],
    ]);
    // The sleeper's all-clear waits for the end of their quiet hours: an all-clear is never urgent.
    const [held] = await stack.db.query<{ not_before: Date | null; status: string }>(
      `SELECT d.not_before, d.status FROM alerts.alert_deliveries d WHERE d.alert_id = $1 AND d.user_id = $2 AND d.kind = 'all_clear'`,
      [id, users.asleep.id],
    );
    expect(held.status).toBe('pending');
    expect(held.not_before!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(received(users.asleep).push).toHaveLength(1);
    // The screen says it ended, live, and the list agrees.
    const ended2 = await waitFor('the sleeper screen told of the all-clear', () => told.find((s) => s.id === id && s.status === 'all_clear'));
    expect(ended2.lastChange).toEqual({ version: 2, kind: 'all_clear', fields: [], severityFrom: null, at: ended.body.lastChange!.at });
    const mine = await call<{ items: UserAlert[] }>('GET', '/me/alerts', users.asleep.token);
    expect(mine.body.items.find((a) => a.id === id)).toMatchObject({
      status: 'all_clear',
      allClear: { message: 'The driver was stopped at milepost 115. Roads are open.' },
    });

    // Their quiet hours end (the release brought forward): the all-clear goes out then, once.
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE alert_id = $1 AND kind = 'all_clear' AND status = 'pending'`, [id]);
    const queue = new Queue(JOB_QUEUE[JobName.PushSend], { connection: { url: stack.redis.url }, prefix: queuePrefix(stack.redis.prefix) });
    try {
      for (const job of await queue.getDelayed()) if (job.data.alertId === id) await job.promote();
    } finally {
      await queue.close();
    }
    await waitFor('the held all-clear', () => received(users.asleep).push.length === 2 || null);
    expect(received(users.asleep).push[1]).toEqual(['All clear: Wrong-way driver on I-8', 'The driver was stopped at milepost 115. Roads are open.']);

    // CAP: an Update with responseType AllClear and urgency Past, referencing the original.
    const texts = await cap(id);
    expect(texts.get('msgType')).toEqual(['Update']);
    expect(texts.get('responseType')).toEqual(['AllClear']);
    expect(texts.get('urgency')).toEqual(['Past']);
    expect(texts.get('references')?.[0]).toContain(`,${id},`);
    // Without its own words, an all-clear says the default.
    const other = await sendAlert({
      title: 'Debris on SR-85',
      message: 'Debris in the right lane near milepost 140.',
      category: 'traffic',
      severity: 'low',
      channels: ['push'],
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
    });
    // (The sleeper's copy is held; the awake user's arrives.)
    await waitFor('the second alert', () => received(users.awake).push.some(([t]) => t === 'Debris on SR-85') || null);
    await call('POST', `/${other.body.id}/all-clear`, adminToken, {});
    await versionDone(other.body.id, 2);
    expect(received(users.awake).push.at(-1)).toEqual(['All clear: Debris on SR-85', LIFECYCLE_WORDS.en.allClearDefault]);
  });

  it('a version whose fan-out job was lost is queued again by the sweep, once, and then reaches its people', async () => {
    const place = destination(MESA, 200, 45);
    const user = await makeUser({ home: place, push: true });
    const sent = await sendAlert({
      title: 'Flooding on SR-87',
      message: 'Water over the road at the wash crossing.',
      category: 'traffic',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
      channels: ['push'],
    });
    const id = sent.body.id;
    await settled(id);
    // Version 2 stored as the update's transaction stores it, two minutes ago, and its job never queued.
    await stack.db.query(`UPDATE alerts.alerts SET title = 'Flooding on SR-87: road closed', version = 2 WHERE id = $1`, [id]);
    await stack.db.query(
      `INSERT INTO alerts.alert_versions (alert_id, version, kind, snapshot, changed, created_at)
       SELECT a.id, 2, 'update', to_jsonb(a), '{title}', now() - interval '2 minutes' FROM alerts.alerts a WHERE a.id = $1`,
      [id],
    );
    const sweep = dispatcher.app.get(SweepHandler);
    expect(await sweep.sweep()).toMatchObject({ requeued: 1 });
    await versionDone(id, 2);
    expect(received(user).push.map(([t]) => t)).toEqual(['Flooding on SR-87', 'Update: Flooding on SR-87: road closed']);
    expect(await sweep.sweep()).toMatchObject({ requeued: 0 });
  });

  it("the dispatcher's /ready says which Web Push key agreement it runs on", async () => {
    const ready = (await (await fetch(`${dispatcher.origin}/ready`)).json()) as { details: Record<string, unknown> };
    expect(ready.details.webPushEcdh).toEqual(expect.objectContaining({ status: 'up', implementation: expect.stringMatching(/^(native|js)$/) }));
  });

  it('an update can draw the area anew: a polygon replaces the circle, people inside it are alerted, CAP carries it', async () => {
    const place = destination(MESA, 250, 300);
    const inside = await makeUser({ home: destination(place, 30, 90), push: true });
    const sent = await sendAlert({
      title: 'Brush fire near SR-87',
      message: 'Smoke over the road; expect closures.',
      category: 'traffic',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
      channels: ['push'],
    });
    const id = sent.body.id;
    await settled(id);
    expect(received(inside).push).toEqual([]);
    // A triangle around the home 30 km east of the first circle.
    const home = destination(place, 30, 90);
    const points: [number, number][] = [
      [home.lat + 0.05, home.lng - 0.05],
      [home.lat + 0.05, home.lng + 0.05],
      [home.lat - 0.06, home.lng],
    ];
    const updated = await call<AdminAlert>('POST', `/${id}/update`, adminToken, { area: { type: 'polygon', points } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ version: 2, radiusKm: null, area: { type: 'polygon', points: [...points, points[0]] } });
    await versionDone(id, 2);
    expect(received(inside).push.map(([t]) => t)).toEqual(['Brush fire near SR-87']);
    // The same polygon again changes nothing; a radius alone cannot resize a drawn area.
    expect((await call('POST', `/${id}/update`, adminToken, { area: { type: 'polygon', points } })).body).toMatchObject({ code: 'nothing_to_update' });
    expect((await call('POST', `/${id}/update`, adminToken, { radiusKm: 9 })).body).toMatchObject({ statusCode: 400, code: 'invalid_area' });
    expect((await call('POST', `/${id}/update`, adminToken, { area: { type: 'polygon', points: points.slice(0, 2) } })).body).toMatchObject({
      code: 'area_too_few_points',
    });
    const versions = await call<AlertVersion[]>('GET', `/${id}/versions`, adminToken);
    expect(versions.body.map((v) => v.area?.type)).toEqual(['circle', 'polygon']);
    const texts = await cap(id);
    expect(texts.get('polygon')).toHaveLength(1);
    expect(texts.get('circle')).toBeUndefined();
  });

  it("a Spanish reader is told the update and the all-clear in Spanish, in the alert's updated Spanish text", async () => {
    const place = destination(MESA, 300, 200);
    const lector = await makeUser({ home: place, push: true, sms: true, language: 'es' });
    // and the open screen: told in Spanish too (issue #38), never the English of the admins' events
    const screen = await socketOf(lector.token);
    const arrived: ReaderAlertEvent[] = [];
    const changed: ReaderAlertEvent[] = [];
    screen.on('alert:new', (e: ReaderAlertEvent) => arrived.push(e));
    screen.on('alert:updated', (e: ReaderAlertEvent) => changed.push(e));
    const sent = await sendAlert({
      title: 'Wrong-way driver on I-8',
      message: 'Wrong-way driver eastbound on I-8 near milepost 40.',
      translations: { es: { title: 'Conductor en sentido contrario en la I-8', message: 'Conductor en sentido contrario hacia el este en la I-8.' } },
      category: 'traffic',
      severity: 'high',
      lat: place.lat,
      lng: place.lng,
      radiusKm: 5,
      channels: ['push', 'sms'],
    });
    const id = sent.body.id;
    await settled(id);
    const updated = await call<AdminAlert>('POST', `/${id}/update`, adminToken, {
      title: 'Wrong-way driver stopped on I-8',
      translations: { es: { title: 'Conductor detenido en la I-8', message: 'El conductor fue detenido; el carril derecho sigue cerrado.' } },
    });
    expect(updated.body).toMatchObject({ version: 2, translations: { es: { title: 'Conductor detenido en la I-8' } } });
    await versionDone(id, 2);
    await call('POST', `/${id}/all-clear`, adminToken, {});
    await versionDone(id, 3);
    const got = received(lector);
    expect(got.push.map(([t]) => t)).toEqual([
      'Conductor en sentido contrario en la I-8',
      'Actualización: Conductor detenido en la I-8',
      'Fin de la alerta: Conductor detenido en la I-8',
    ]);
    expect(got.push[2][1]).toBe(LIFECYCLE_WORDS.es.allClearDefault);
    expect(got.sms.map(([t]) => t)).toEqual(got.push.map(([t]) => t));
    const versions = await call<AlertVersion[]>('GET', `/${id}/versions`, adminToken);
    expect(versions.body[1].changed).toEqual(['title', 'translations']);
    // CAP: one <info> per language, the all-clear in each.
    const texts = await cap(id);
    expect(texts.get('headline')).toEqual(['All clear: Wrong-way driver stopped on I-8', 'Fin de la alerta: Conductor detenido en la I-8']);

    await waitFor('the all-clear on the open screen', () => changed.some((e) => e.status === 'all_clear') || null);
    expect(arrived.filter((e) => e.id === id).map((e) => [e.language, e.title])).toEqual([['es', 'Conductor en sentido contrario en la I-8']]);
    const [update, allClear] = changed.filter((e) => e.id === id);
    expect(update).toMatchObject({ language: 'es', version: 2, title: 'Conductor detenido en la I-8' });
    expect(allClear).toMatchObject({ language: 'es', status: 'all_clear', title: 'Conductor detenido en la I-8' });
    // the all-clear as the reader's feed has it, in their language
    const feed = await call<UserAlert>('GET', `/me/alerts/${id}`, lector.token);
    expect(feed.body.language).toBe('es');
    expect(allClear.allClear).toEqual(feed.body.allClear);
  });
});

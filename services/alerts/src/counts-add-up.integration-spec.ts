import { randomUUID } from 'node:crypto';
import {
  AdminAlert,
  AlertDeliveryRow,
  AlertOperations,
  AlertPreferences,
  DELIVERY_STATUSES,
  DeliveryStatus,
  HelpRequest,
  Page,
  PreferenceAlertType,
} from '@beacon/contracts';
import { parse as parseCsvText } from 'csv-parse/sync';
import { destination } from '@beacon/geo';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { dispatcherService } from './dispatcher.service';
import { alertsService } from './service';
import { DispatchStack } from './testing/dispatch-stack';

const MESA = { lat: 33.4152, lng: -111.8315 };

jest.setTimeout(120_000);

/**
 * Counts that add up (issue #38): an alert's recipients, summary and success rate over every round (the first message,
 * a fallback, an update reaching new people, the all-clear) equal its delivery rows; a channel being retried never
 * reads as a success and has no pace; the per-recipient report and the delivery list say what each delivery carried,
 * to whom (masked), and keep the last error beside a later success; help requests show how to reach the person, where,
 * and are resolved with a note.
 */
describe('counts that add up, reports and help requests', () => {
  const stack = new DispatchStack();
  const { push, sms } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  let place = 0;
  let phones = 0;

  beforeAll(async () => {
    await stack.start({ SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, { ...stack.vars, CHANNEL_RETRY_BASE_MS: '300', CHANNEL_RETRY_MAX_DELAY_SECONDS: '1' });
    admin = await stack.identity.token({ id: randomUUID(), email: 'counts-admin@beacon.local', role: 'admin' });
  });

  afterAll(() => stack.close(dispatcher, alerts));

  const call = jsonClient(() => alerts.url);

  /** A place of its own for each test, 200 km apart, so one test's alerts never reach another's people. */
  const newPlace = () => destination(MESA, 200 * ++place, 0);

  async function makeUser(home: { lat: number; lng: number }, o: { browser?: boolean; pushOn?: boolean; sms?: boolean }) {
    const id = randomUUID();
    const email = `counts-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const phone = o.sms ? `+1480777${String(++phones).padStart(4, '0')}` : null;
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, {
      alertTypes: ['emergency'] as PreferenceAlertType[],
      home,
      radiusMiles: 50,
      methods: { push: o.pushOn ?? !!o.browser, sms: !!o.sms, email: false, voice: true },
      phoneNumber: phone,
    });
    expect(saved.status).toBe(200);
    if (o.browser) {
      const sub = push.subscribe();
      const ua = { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36' };
      expect((await call('POST', '/me/push-subscriptions', token, sub.json, ua)).status).toBe(201);
    }
    return { id, email, token, phone };
  }

  async function sendAlert(at: { lat: number; lng: number }, radiusKm: number, channels: string[]) {
    const res = await call<AdminAlert>('POST', '', admin, {
      title: 'Chemical spill on the Superstition Freeway',
      message: 'Stay indoors and close your windows.',
      category: 'public_safety',
      severity: 'high',
      lat: at.lat,
      lng: at.lng,
      radiusKm,
      channels,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  const rowsOf = (alertId: string) =>
    stack.db.query<{ user_id: string; channel: string; status: string; kind: string; fallback: boolean; error: string | null; last_error: string | null }>(
      `SELECT user_id, channel, status, kind, fallback, error, last_error FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alertId],
    );

  /** The alert once nothing of it is pending or being sent: every round settled. */
  const settled = (alertId: string) =>
    waitFor(`alert ${alertId} to settle`, async () => {
      const rows = await rowsOf(alertId);
      if (!rows.length || rows.some((r) => r.status === 'pending' || r.status === 'sending')) return null;
      const res = await call<AdminAlert>('GET', `/${alertId}`, admin);
      return res.body.recipients !== null && res.body.deliveryLabel !== 'Pending' ? res.body : null;
    });

  const versionDone = (alertId: string, version: number) =>
    waitFor(`version ${version} of ${alertId} fanned out`, async () => {
      const [v] = await stack.db.query<{ dispatched_at: Date | null }>(`SELECT dispatched_at FROM alerts.alert_versions WHERE alert_id = $1 AND version = $2`, [
        alertId,
        version,
      ]);
      return v?.dispatched_at ? true : null;
    });

  /** What the alert's figures must be, read from its rows: one recipient per person, counts per channel and status. */
  async function expectFiguresOfRows(a: AdminAlert) {
    const rows = await rowsOf(a.id);
    expect(a.recipients).toBe(new Set(rows.map((r) => r.user_id)).size);
    const byChannel: Record<string, Record<DeliveryStatus, number>> = {};
    for (const r of rows) {
      const c = (byChannel[r.channel] ??= Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>);
      c[(r.status === 'sending' ? 'pending' : r.status) as DeliveryStatus] += 1;
    }
    for (const [channel, counts] of Object.entries(byChannel)) expect(a.summary[channel as 'push']).toMatchObject(counts);
    const ok = rows.filter((r) => ['sent', 'delivered', 'read'].includes(r.status)).length;
    const tried = ok + rows.filter((r) => r.status === 'failed').length;
    expect(a.successRate).toBe(tried ? Math.round((ok / tried) * 100) : 0);
    return rows;
  }

  it('recipients, summary and success over the first message, a fallback, an update reaching new people and the all-clear equal the rows', async () => {
    const p0 = newPlace();
    const east = destination(p0, 25, 90);
    const people = {
      // inside the first area: reached by push
      reached: await makeUser(p0, { browser: true }),
      // inside: push on with no browser, and SMS, which the alert does not use: the fallback's
      noBrowser: await makeUser(p0, { pushOn: true, sms: true }),
      // inside the first area only: told they are no longer in it
      leaves: await makeUser(destination(p0, 8, 270), { browser: true }),
      // inside the updated area only: the update's new recipients
      newcomer1: await makeUser(east, { browser: true }),
      newcomer2: await makeUser(east, { browser: true }),
      // inside the updated area only, no channel of the alert reaches them: the second fallback's
      newUnreached: await makeUser(east, { pushOn: true, sms: true }),
    };
    await makeUser(destination(p0, 120, 0), { browser: true }); // never concerned

    const sent = await sendAlert(p0, 10, ['push']);
    let a = await settled(sent.id);
    expect(a).toMatchObject({ recipients: 2, concerned: 3, successRate: 100 });
    await expectFiguresOfRows(a);

    // "1 more it concerns no channel of it reaches" until the fallback reached them
    const fallback = await call<{ added: number }>('POST', `/${sent.id}/fallback`, admin, { channel: 'sms' });
    expect(fallback.body).toEqual({ added: 1 });
    a = await settled(sent.id);
    expect(a).toMatchObject({ recipients: 3, concerned: 3 });
    await expectFiguresOfRows(a);

    const centre = destination(p0, 15, 90);
    const updated = await call<AdminAlert>('POST', `/${sent.id}/update`, admin, { lat: centre.lat, lng: centre.lng, radiusKm: 20, version: 1 });
    expect(updated.status).toBe(200);
    await versionDone(sent.id, 2);
    a = await settled(sent.id);
    // the two newcomers were sent it; the one no channel reaches is concerned and not a recipient
    expect(a).toMatchObject({ recipients: 5, concerned: 6 });
    await expectFiguresOfRows(a);

    expect((await call<{ added: number }>('POST', `/${sent.id}/fallback`, admin, { channel: 'sms' })).body).toEqual({ added: 1 });
    a = await settled(sent.id);
    expect(a).toMatchObject({ recipients: 6, concerned: 6 });

    expect((await call<AdminAlert>('POST', `/${sent.id}/all-clear`, admin, { message: 'The spill is contained.' })).status).toBe(200);
    await versionDone(sent.id, 3);
    a = await settled(sent.id);
    expect(a.recipients).toBe(6);
    const rows = await expectFiguresOfRows(a);

    const kinds = (u: { id: string }) =>
      rows
        .filter((r) => r.user_id === u.id)
        .map((r) => `${r.channel}:${r.fallback ? 'fallback' : r.kind}`)
        .sort();
    expect(kinds(people.reached)).toEqual(['push:alert', 'push:all_clear', 'push:update']);
    // the fallback's channel is theirs for the update too: updated there, never told they left the area
    expect(kinds(people.noBrowser)).toEqual(['sms:all_clear', 'sms:fallback', 'sms:update']);
    expect(kinds(people.leaves)).toEqual(['push:alert', 'push:all_clear', 'push:left_area']);
    expect(kinds(people.newcomer1)).toEqual(['push:alert', 'push:all_clear']);
    expect(kinds(people.newUnreached)).toEqual(['sms:all_clear', 'sms:fallback']);

    // The per-recipient report: version and kind of every delivery, the contact masked (formula-safe: a leading + is
    // quoted), the e-mail on file.
    const csv = await fetch(`${alerts.url}/${sent.id}/deliveries.csv`, { headers: { authorization: `Bearer ${admin}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="alert-${sent.id}-recipients.csv"`);
    const [header, ...lines] = parseCsv(await csv.text());
    expect(header).toEqual(
      expect.arrayContaining(['Delivery', 'User', 'Recipient email', 'Contact', 'Channel', 'Version', 'Kind', 'Status', 'Attempts', 'Last error']),
    );
    expect(lines).toHaveLength(rows.length);
    const col = (name: string) => header.indexOf(name);
    const report = (u: { id: string }) =>
      lines
        .filter((l) => l[col('User')] === u.id)
        .map((l) => [l[col('Channel')], l[col('Version')], l[col('Kind')], l[col('Contact')], l[col('Recipient email')]].join(' | '))
        .sort();
    expect(report(people.noBrowser)).toEqual(
      [
        `SMS | 1 | Fallback | '+1•••••${people.noBrowser.phone!.slice(-4)} | ${people.noBrowser.email}`,
        `SMS | 2 | Update | '+1•••••${people.noBrowser.phone!.slice(-4)} | ${people.noBrowser.email}`,
        `SMS | 3 | All-clear | '+1•••••${people.noBrowser.phone!.slice(-4)} | ${people.noBrowser.email}`,
      ].sort(),
    );
    expect(report(people.leaves)).toEqual(
      [
        `Web Push | 1 | First message | Chrome on Android | ${people.leaves.email}`,
        `Web Push | 2 | No longer in area | Chrome on Android | ${people.leaves.email}`,
        `Web Push | 3 | All-clear | Chrome on Android | ${people.leaves.email}`,
      ].sort(),
    );
    expect(report(people.newcomer2)).toEqual(
      [
        `Web Push | 2 | First message | Chrome on Android | ${people.newcomer2.email}`,
        `Web Push | 3 | All-clear | Chrome on Android | ${people.newcomer2.email}`,
      ].sort(),
    );
    // the second fallback went out after the update: it carried version 2
    expect(report(people.newUnreached)[0]).toMatch(/^SMS \| 2 \| Fallback \| '\+1•••••\d{4} \| counts-/);

    // The delivery list names each recipient by the masked contact of its channel, and what it carried.
    const list = await call<Page<AlertDeliveryRow>>('GET', `/${sent.id}/deliveries?channel=sms&pageSize=100`, admin);
    expect(list.status).toBe(200);
    expect(list.body.items.filter((d) => d.userId === people.noBrowser.id).map((d) => [d.contact, d.kind, d.version])).toEqual(
      expect.arrayContaining([
        [`+1•••••${people.noBrowser.phone!.slice(-4)}`, 'fallback', 1],
        [`+1•••••${people.noBrowser.phone!.slice(-4)}`, 'update', 2],
      ]),
    );
    expect(JSON.stringify(list.body)).not.toContain(people.noBrowser.phone!);
  });

  it('a channel being retried is no success and has no pace; the last error stays beside the later success', async () => {
    const p0 = newPlace();
    const people = await Promise.all([0, 1, 2].map(() => makeUser(p0, { browser: true, sms: true })));
    sms.downUntil = Number.MAX_SAFE_INTEGER;
    const sent = await sendAlert(p0, 10, ['push', 'sms']);
    try {
      // Push went through for all three; every SMS failed for now and waits for its retry.
      const retrying = await waitFor('push sent and every SMS waiting for a retry', async () => {
        const res = await call<AdminAlert>('GET', `/${sent.id}`, admin);
        const s = res.body.summary;
        return s.push?.sent === 3 && s.sms?.retrying === 3 && sms.received.some((r) => r.status === 503) ? res.body : null;
      });
      expect(retrying).toMatchObject({ recipients: 3, deliveryLabel: 'Pending' });
      // "Recipients: 3 · Success rate: 100%" beside "SMS 0 of 3 processed · 3 retrying" was the bug
      expect(retrying.successRate).toBe(50);

      const ops = await call<AlertOperations>('GET', `/${sent.id}/operations`, admin);
      expect(ops.status).toBe(200);
      expect(ops.body.channels.sms).toMatchObject({ ratePerSecond: 0, retrying: 3 });
      expect(ops.body.timeline.filter((b) => b.channel === 'sms').reduce((n, b) => n + b.succeeded, 0)).toBe(0);
      expect(ops.body.timeline.filter((b) => b.channel === 'sms').reduce((n, b) => n + b.retried, 0)).toBeGreaterThan(0);
      // the push channel's pace is its successes (3) over the window, whatever it is: never the SMS failures
      const pushOutcomes = ops.body.timeline.filter((b) => b.channel === 'push').reduce((n, b) => n + b.succeeded, 0);
      expect(pushOutcomes).toBe(3);
    } finally {
      sms.downUntil = 0;
    }

    const done = await settled(sent.id);
    expect(done.successRate).toBe(100);
    const rows = await rowsOf(sent.id);
    const smsRows = rows.filter((r) => r.channel === 'sms');
    expect(smsRows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    for (const r of smsRows) {
      expect(r.error).toBeNull();
      expect(r.last_error).toMatch(/503/);
    }

    const csv = await fetch(`${alerts.url}/${sent.id}/deliveries.csv`, { headers: { authorization: `Bearer ${admin}` } });
    const [header, ...lines] = parseCsv(await csv.text());
    const smsLines = lines.filter((l) => l[header.indexOf('Channel')] === 'SMS');
    expect(smsLines).toHaveLength(3);
    for (const l of smsLines) {
      expect(l[header.indexOf('Status')]).toBe('Sent to provider');
      expect(Number(l[header.indexOf('Attempts')])).toBeGreaterThan(1);
      expect(l[header.indexOf('Last error')]).toMatch(/503/);
    }
    const list = await call<Page<AlertDeliveryRow>>('GET', `/${sent.id}/deliveries?channel=sms`, admin);
    expect(list.body.items.map((d) => [d.status, d.error, d.lastError && /503/.test(d.lastError)])).toEqual([
      ['sent', null, true],
      ['sent', null, true],
      ['sent', null, true],
    ]);
    expect(people).toHaveLength(3);
  });

  it("a draft has no success rate; the history's export has a name of its own", async () => {
    const draft = await call<AdminAlert>('POST', '', admin, {
      title: 'Draft: boil water notice',
      message: 'Boil tap water before drinking it.',
      category: 'health',
      severity: 'medium',
      ...newPlace(),
      radiusKm: 5,
      channels: ['push'],
      draft: true,
    });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'draft', sentAt: null, successRate: null });

    const history = await fetch(`${alerts.url}/export.csv`, { headers: { authorization: `Bearer ${admin}` } });
    expect(history.status).toBe(200);
    expect(history.headers.get('content-disposition')).toMatch(/^attachment; filename="alert-history-all-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...lines] = parseCsv(await history.text());
    const row = lines.find((l) => l[header.indexOf('Title')] === 'Draft: boil water notice');
    expect(row?.[header.indexOf('Success rate')]).toBe('');
  });

  it('help requests show how to reach the person and where, to staff only, and are resolved with a note', async () => {
    const home = newPlace();
    const sharer = await makeUser(home, { browser: true, sms: true });
    const homeOnly = await makeUser(home, { browser: true });
    const sent = await sendAlert(home, 10, ['push']);
    await settled(sent.id);

    const shared = destination(home, 2, 45);
    expect((await call('POST', `/me/alerts/${sent.id}/help`, sharer.token, { message: 'Trapped in my car', ...shared })).status).toBe(201);
    const own = await call<HelpRequest>('POST', `/me/alerts/${sent.id}/help`, homeOnly.token, {});
    expect(own.status).toBe(201);
    // the person who asked is not told staff's view of them
    expect(own.body).not.toHaveProperty('phone');

    const viewer = await stack.identity.token({ id: randomUUID(), email: 'viewer@beacon.local', role: 'viewer' });
    const publisher = await stack.identity.token({ id: randomUUID(), email: 'publisher@beacon.local', role: 'publisher' });
    expect((await call('GET', '/admin/help-requests', sharer.token)).status).toBe(403);
    const list = await call<Page<HelpRequest>>('GET', '/admin/help-requests?status=open', viewer);
    expect(list.status).toBe(200);
    const of = (u: { id: string }) => list.body.items.find((h) => h.userId === u.id)!;
    expect(of(sharer)).toMatchObject({
      alertId: sent.id,
      userEmail: sharer.email,
      phone: sharer.phone,
      message: 'Trapped in my car',
      place: { source: 'shared', lat: shared.lat, lng: shared.lng },
      resolution: null,
    });
    expect(of(homeOnly)).toMatchObject({ userEmail: homeOnly.email, phone: null, place: { source: 'home', lat: home.lat, lng: home.lng } });

    const id = of(sharer).id;
    expect((await call('POST', `/admin/help-requests/${id}/resolve`, viewer, { note: 'Called them back' })).status).toBe(403);
    for (const body of [{}, { note: '' }, { note: '   ' }, { note: 'x'.repeat(501) }]) {
      const refused = await call('POST', `/admin/help-requests/${id}/resolve`, publisher, body);
      expect(refused.body).toMatchObject({ statusCode: 400, code: 'resolution_note_required' });
    }
    expect((await call('POST', `/admin/help-requests/${randomUUID()}/resolve`, publisher, { note: 'Called them back' })).status).toBe(404);
    const resolved = await call<HelpRequest>('POST', `/admin/help-requests/${id}/resolve`, publisher, {
      note: '  Fire crew 12 got them out; unhurt.  ',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolution: { note: 'Fire crew 12 got them out; unhurt.', byEmail: 'publisher@beacon.local', at: expect.stringMatching(/^\d{4}-/) },
    });
    // a second resolve keeps the first note
    const again = await call<HelpRequest>('POST', `/admin/help-requests/${id}/resolve`, admin, { note: 'Duplicate click' });
    expect(again.body.resolution?.note).toBe('Fire crew 12 got them out; unhurt.');
    const resolvedList = await call<Page<HelpRequest>>('GET', '/admin/help-requests?status=resolved', viewer);
    expect(resolvedList.body.items.find((h) => h.id === id)?.resolution).toMatchObject({
      note: 'Fire crew 12 got them out; unhurt.',
      byEmail: 'publisher@beacon.local',
    });
  });
});

const parseCsv = (text: string): string[][] => parseCsvText(text, { bom: true });

import { createSecretKey, randomUUID } from 'node:crypto';
import {
  AdminAlert,
  AlertAudience,
  AUDIENCE_TOKEN_HEADER,
  AUDIENCE_TOKEN_TTL_SECONDS,
  ApiErrorBody,
  LIFECYCLE_WORDS,
  PreferenceAlertType,
  UserAlert,
} from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { dispatcherService } from '../dispatcher.service';
import { audienceTokenKeyOf } from '../keys/server-keys';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';
import { sendHeldNow } from '../testing/held-deliveries';
import { readAudienceToken, signAudienceToken } from './audience-token';

/** Each test's people live around a place of their own, 300 km apart, so each test's counts are its own. */
const BASE = { lat: 35.2, lng: -111.6 };
let places = 0;
const newPlace = () => destination(BASE, 300 * ++places, 90);

jest.setTimeout(120_000);

/**
 * Nothing goes out unreviewed (issue #38): every sending route, given the token of the audience preview the sender
 * confirmed, goes ahead only while the audience is the one shown; when it moved, it answers 409 with the new counts and
 * a fresh token, and nothing is sent or changed. Without a token it works as before. An alert needs an area, or
 * everyone chosen. The all-clear reaches each reader in their language. "Not reached" counts only the unreached.
 */
describe('the audience guard on every sending route', () => {
  const stack = new DispatchStack();
  const { push, sms, smtp } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  let phoneSeq = 0;

  beforeAll(async () => {
    await stack.start({ SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'guard-admin@beacon.local', role: 'admin' });
  });

  afterAll(() => stack.close(dispatcher, alerts));

  const call = jsonClient(() => alerts.url);
  const withToken = (token: string) => ({ [AUDIENCE_TOKEN_HEADER]: token });

  /** Someone at `home` who follows weather alerts, on the channels given. */
  async function person(home: { lat: number; lng: number }, o: { sms?: boolean; email?: boolean; push?: 'device' | 'no device'; language?: string } = {}) {
    const id = randomUUID();
    const email = `guard-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const phone = o.sms ? `+1928555${String(++phoneSeq).padStart(4, '0')}` : null;
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['weather'] as PreferenceAlertType[],
      severityThreshold: 'low',
      home,
      radiusMiles: 25,
      methods: { push: !!o.push, sms: !!o.sms, email: !!o.email, voice: true },
      phoneNumber: phone,
      ...(o.language ? { language: o.language } : {}),
    });
    expect(saved.status).toBe(200);
    if (o.push === 'device') expect((await call('POST', '/me/push-subscriptions', token, push.subscribe().json)).status).toBe(201);
    return { id, email, token, phone };
  }

  const circle = (place: { lat: number; lng: number }, radiusKm = 10) => ({ type: 'circle', lat: place.lat, lng: place.lng, radiusKm });

  const alertAt = (place: { lat: number; lng: number }, title: string, extra: Record<string, unknown> = {}) => ({
    title,
    message: 'Flash flood warning: move to higher ground now.',
    category: 'weather',
    severity: 'high',
    area: circle(place),
    channels: ['sms'],
    ...extra,
  });

  async function sent(body: Record<string, unknown>) {
    const res = await call<AdminAlert>('POST', '', admin, body, { 'idempotency-key': randomUUID() });
    expect(res.status).toBe(201);
    return waitFor(`alert "${body.title}" dispatched`, async () => {
      const a = (await call<AdminAlert>('GET', `/${res.body.id}`, admin)).body;
      return a.recipients !== null && a.deliveryLabel !== 'Pending' ? a : null;
    });
  }

  const alertNow = async (id: string) => (await call<AdminAlert>('GET', `/${id}`, admin)).body;
  const titled = async (title: string) => (await stack.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alerts.alerts WHERE title = $1`, [title]))[0].n;
  const deliveries = (alertId: string) =>
    stack.db.query<{ user_id: string; channel: string; status: string; kind: string; round: number }>(
      `SELECT user_id, channel, status, kind, round FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY round, user_id`,
      [alertId],
    );

  /** The 409 of a stale preview: its code, its message, and the audience as it is now (with a token to send on). */
  function refused(res: { status: number; body: unknown }, code: string, message?: string) {
    expect(res.status).toBe(409);
    const body = res.body as ApiErrorBody & { details: { audience: AlertAudience } };
    expect(body).toMatchObject({ code, ...(message ? { message } : {}) });
    expect(body.details.audience.token).toEqual(expect.any(String));
    return body.details.audience;
  }

  it('create: a preview the audience outgrew is refused with the new count and nothing is stored; its fresh token sends; no token sends as before', async () => {
    const place = newPlace();
    await person(place, { sms: true });
    await person(place, { sms: true });
    const body = alertAt(place, 'Guard create: flash flood');
    const preview = (await call<AlertAudience>('POST', '/audience', admin, body)).body;
    expect(preview).toMatchObject({ recipients: 2, channels: { sms: { recipients: 2 } }, token: expect.any(String) });

    await person(place, { sms: true }); // someone subscribes meanwhile
    const fresh = refused(
      await call('POST', '', admin, body, withToken(preview.token)),
      'audience_changed',
      'The audience changed since you checked: this alert would now reach 3 people, not 2. Check and send again.',
    );
    expect(fresh).toMatchObject({ recipients: 3, channels: { sms: { recipients: 3, configured: true } } });
    expect(await titled(body.title)).toBe(0);

    const created = await call<AdminAlert>('POST', '', admin, body, withToken(fresh.token));
    expect(created.status).toBe(201);
    expect((await waitFor('the recipients', async () => (await alertNow(created.body.id)).recipients)) ?? null).toBe(3);

    // No token: as before the guard.
    const plain = await call<AdminAlert>('POST', '', admin, { ...body, title: 'Guard create: no token' });
    expect(plain.status).toBe(201);
    expect(plain.body.status).toBe('active');
  });

  it('create: a token of another body, a forged and an expired one are refused, and nothing is stored', async () => {
    const place = newPlace();
    await person(place, { sms: true });
    const body = alertAt(place, 'Guard create: the body previewed');
    const preview = (await call<AlertAudience>('POST', '/audience', admin, body)).body;

    const other = { ...body, title: 'Guard create: another body', area: circle(place, 50) };
    const mismatch = refused(await call('POST', '', admin, other, withToken(preview.token)), 'audience_preview_mismatch');
    expect(mismatch.recipients).toBe(1);
    expect(await titled(other.title)).toBe(0);

    const forged = await call('POST', '', admin, body, withToken('eyJ2IjoxfQ.bm90IGEgc2lnbmF0dXJl'));
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'invalid_audience_token' });
    const [claim, signature] = preview.token.split('.');
    const inflated = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claim, 'base64url').toString()), recipients: 1000 })).toString('base64url');
    expect((await call('POST', '', admin, body, withToken(`${inflated}.${signature}`))).body).toMatchObject({ code: 'invalid_audience_token' });

    // The same preview, as the server signed it, made longer ago than a token lives.
    const [{ receipt_secret }] = await stack.db.query<{ receipt_secret: string }>(`SELECT receipt_secret FROM alerts.server_keys WHERE id = 1`);
    const key = audienceTokenKeyOf(createSecretKey(Buffer.from(receipt_secret, 'base64url')));
    const old = signAudienceToken(key, { ...readAudienceToken(key, preview.token)!, issuedAt: Date.now() - (AUDIENCE_TOKEN_TTL_SECONDS + 5) * 1000 });
    refused(
      await call('POST', '', admin, body, withToken(old)),
      'audience_preview_expired',
      'This preview is more than 15 minutes old: this alert would now reach 1 person. Check and send again.',
    );
    expect(await titled(body.title)).toBe(0);
  });

  it('an area, or everyone by choice: 400 for neither or both; a draft saves without; its send asks for everyone', async () => {
    const place = newPlace();
    const noArea = { ...alertAt(place, 'Guard area: nowhere'), area: undefined };
    const everywhere = { ...noArea, category: 'security' }; // no one here follows these: nobody is sent anything
    for (const path of ['', '/audience']) {
      expect((await call('POST', path, admin, noArea)).body).toMatchObject({
        code: 'area_required',
        message: 'Choose where this alert applies, or choose to send it to everyone',
      });
      expect((await call('POST', path, admin, { ...alertAt(place, 'Guard area: both'), everyone: true })).body).toMatchObject({ code: 'area_and_everyone' });
      expect((await call('POST', path, admin, { ...noArea, everyone: 'yes' })).body).toMatchObject({ code: 'validation_failed' });
    }
    expect((await call('POST', '/audience', admin, { ...everywhere, everyone: true })).status).toBe(200);

    const draft = await call<AdminAlert>('POST', '', admin, { ...everywhere, title: 'Guard area: draft without area', draft: true });
    expect(draft.status).toBe(201);
    expect((await call('POST', `/${draft.body.id}/send`, admin, {})).body).toMatchObject({ code: 'area_required' });
    expect((await call('GET', `/${draft.body.id}/audience`, admin)).body).toMatchObject({ code: 'area_required' });
    expect((await call('GET', `/${draft.body.id}/audience?everyone=maybe`, admin)).body).toMatchObject({ code: 'validation_failed' });
    const everyone = await call<AlertAudience>('GET', `/${draft.body.id}/audience?everyone=true`, admin);
    expect(everyone.status).toBe(200);
    // The preview of everyone is no way round choosing it.
    expect((await call('POST', `/${draft.body.id}/send`, admin, {}, withToken(everyone.body.token))).body).toMatchObject({ code: 'area_required' });
    const out = await call<AdminAlert>('POST', `/${draft.body.id}/send`, admin, { everyone: true }, withToken(everyone.body.token));
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('active');

    const placed = await call<AdminAlert>('POST', '', admin, { ...alertAt(place, 'Guard area: draft with area'), draft: true });
    expect((await call('POST', `/${placed.body.id}/send`, admin, { everyone: true })).body).toMatchObject({ code: 'area_and_everyone' });
    expect((await alertNow(placed.body.id)).status).toBe('draft');
  });

  it('send a draft: a stale preview leaves it a draft; a fresh one sends; one of another draft, or of the draft before its edit, is refused', async () => {
    const place = newPlace();
    await person(place, { sms: true });
    const draft = (await call<AdminAlert>('POST', '', admin, { ...alertAt(place, 'Guard send: storm'), draft: true })).body;
    const viewer = await stack.identity.token({ id: randomUUID(), role: 'viewer' });
    const publisher = await stack.identity.token({ id: randomUUID(), role: 'publisher' });
    expect((await call('GET', `/${draft.id}/audience`, viewer)).status).toBe(403);
    const preview = await call<AlertAudience>('GET', `/${draft.id}/audience`, publisher);
    expect(preview.body).toMatchObject({ recipients: 1, concerned: 1 });

    await person(place, { sms: true });
    const fresh = refused(
      await call('POST', `/${draft.id}/send`, admin, {}, withToken(preview.body.token)),
      'audience_changed',
      'The audience changed since you checked: this alert would now reach 2 people, not 1. Check and send again.',
    );
    expect((await alertNow(draft.id)).status).toBe('draft');
    expect(await deliveries(draft.id)).toEqual([]);

    // Edited since the preview: the token was for the draft as it was.
    const edited = await call('POST', `/${draft.id}/update`, admin, { message: 'Severe storm: stay indoors and away from windows.', revision: draft.revision });
    expect(edited.status).toBe(200);
    refused(await call('POST', `/${draft.id}/send`, admin, {}, withToken(fresh.token)), 'audience_preview_mismatch');

    const other = (await call<AdminAlert>('POST', '', admin, { ...alertAt(place, 'Guard send: another draft'), draft: true })).body;
    const now = (await call<AlertAudience>('GET', `/${draft.id}/audience`, admin)).body;
    refused(await call('POST', `/${other.id}/send`, admin, {}, withToken(now.token)), 'audience_preview_mismatch');
    expect((await alertNow(other.id)).status).toBe('draft');

    const out = await call<AdminAlert>('POST', `/${draft.id}/send`, admin, {}, withToken(now.token));
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('active');
    // No token: as before.
    expect((await call<AdminAlert>('POST', `/${other.id}/send`, admin)).body.status).toBe('active');
    expect((await call('GET', `/${randomUUID()}/audience`, admin)).status).toBe(404);
    expect((await call('GET', `/${draft.id}/audience`, admin)).body).toMatchObject({ code: 'invalid_alert_status' });
  });

  it('update: the preview says who is told what; a stale one changes nothing; the fresh one tells exactly that many', async () => {
    const place = newPlace();
    const moved = destination(place, 16, 90);
    const left = await person(place, { sms: true }); // 16 km from the new centre: left out
    const stays = await person(destination(place, 8, 90), { sms: true }); // 8 km from both centres
    const joins = await person(destination(place, 22, 90), { sms: true }); // only in the new area
    const alert = await sent(alertAt(place, 'Guard update: flooding'));
    expect(alert.recipients).toBe(2);

    const change = { area: circle(moved), version: 1 };
    const preview = (await call<AlertAudience>('POST', `/${alert.id}/update/audience`, admin, change)).body;
    expect(preview).toMatchObject({
      recipients: 3,
      concerned: 2,
      told: { stillInArea: 1, leftArea: 1, newlyConcerned: 1 },
      channels: { sms: { recipients: 3 } },
    });

    const late = await person(moved, { sms: true });
    const fresh = refused(
      await call('POST', `/${alert.id}/update`, admin, change, withToken(preview.token)),
      'audience_changed',
      'The audience changed since you checked: this update would now tell 4 people, not 3. Check and send again.',
    );
    expect(fresh.told).toEqual({ stillInArea: 1, leftArea: 1, newlyConcerned: 2 });
    expect((await alertNow(alert.id)).version).toBe(1);
    expect(await stack.db.query(`SELECT 1 FROM alerts.alert_versions WHERE alert_id = $1`, [alert.id])).toEqual([]);

    const updated = await call<AdminAlert>('POST', `/${alert.id}/update`, admin, change, withToken(fresh.token));
    expect(updated.status).toBe(200);
    expect(updated.body.version).toBe(2);
    const round = await waitFor('the update fanned out', async () => {
      const rows = (await deliveries(alert.id)).filter((d) => d.round > 1);
      return rows.length === 4 ? rows : null;
    });
    expect(Object.fromEntries(round.map((d) => [d.user_id, d.kind]))).toEqual({
      [left.id]: 'left_area',
      [stays.id]: 'update',
      [joins.id]: 'alert',
      [late.id]: 'alert',
    });

    // No token: as before.
    expect((await call('POST', `/${alert.id}/update`, admin, { message: 'Flooding continues: stay on high ground.' })).status).toBe(200);
    expect((await call('POST', `/${alert.id}/update/audience`, admin, { area: null })).body).toMatchObject({ code: 'area_required' });
  });

  it('all-clear: each reader is told in their language, the Spanish one in Spanish alone; a stale preview ends nothing', async () => {
    const place = newPlace();
    const spanish = await person(place, { sms: true, language: 'es' });
    const english = await person(place, { sms: true });
    const byMail = await person(place, { email: true }); // the alert's SMS does not reach them
    const alert = await sent(
      alertAt(place, 'Guard all-clear: river flooding', {
        translations: { es: { title: 'Inundación del río', message: 'Aviso de inundación: suba a terreno alto ahora.' } },
      }),
    );
    expect(alert.recipients).toBe(2);

    const allClear = {
      message: 'The river is back within its banks. Roads are open again.',
      translations: { es: { message: 'El río ha vuelto a su cauce. Las carreteras están abiertas de nuevo.' } },
    };
    for (const [bad, field] of [
      [{ de: { message: 'Der Fluss ist zurück.' } }, /Unsupported language "de"/],
      [{ es: { message: '   ' } }, /Spanish all-clear message must not be empty/],
      [{ es: { message: 'x'.repeat(501) } }, /Spanish all-clear message must be at most 500 characters/],
    ] as const) {
      const res = await call<ApiErrorBody>('POST', `/${alert.id}/all-clear`, admin, { ...allClear, translations: bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(field);
    }
    const preview = (await call<AlertAudience>('POST', `/${alert.id}/all-clear/audience`, admin, allClear)).body;
    expect(preview).toMatchObject({ recipients: 2, channels: { sms: { recipients: 2 } } });

    // Meanwhile the person the SMS missed is reached by e-mail: the all-clear would tell them too.
    expect((await call('POST', `/${alert.id}/fallback`, admin, { channel: 'email' })).body).toEqual({ added: 1 });
    await waitFor('the fallback e-mail sent', async () =>
      (await deliveries(alert.id)).some((d) => d.channel === 'email' && d.status === 'sent') ? true : null,
    );
    const fresh = refused(
      await call('POST', `/${alert.id}/all-clear`, admin, allClear, withToken(preview.token)),
      'audience_changed',
      'The audience changed since you checked: the all-clear would now tell 3 people, not 2. Check and send again.',
    );
    expect(fresh.channels).toMatchObject({ sms: { recipients: 2 }, email: { recipients: 1 } });
    expect((await alertNow(alert.id)).status).toBe('active');

    const ended = await call<AdminAlert>('POST', `/${alert.id}/all-clear`, admin, allClear, withToken(fresh.token));
    expect(ended.status).toBe(200);
    expect(ended.body.allClear).toMatchObject({ message: allClear.message, translations: allClear.translations });

    const es = LIFECYCLE_WORDS.es;
    const smsTo = (phone: string) =>
      waitFor(
        `the all-clear SMS to ${phone}`,
        async () => sms.received.find((c) => c.status === 200 && c.body.recipients.includes(phone) && /^(Fin|All)/.test(c.body.title)) ?? null,
      );
    expect((await smsTo(spanish.phone!)).body).toMatchObject({
      title: `${es.allClear}Inundación del río`,
      message: allClear.translations.es.message,
      language: 'es',
    });
    expect((await smsTo(english.phone!)).body).toMatchObject({ title: 'All clear: Guard all-clear: river flooding', message: allClear.message });
    // the all-clear's e-mail waits for the e-mail digest's hour (issue #40): the hour comes now
    expect(await sendHeldNow(stack, [alert.id])).toBe(1);
    const mail = await waitFor(
      'the all-clear e-mail',
      async () => smtp.received.find((m) => m.to.includes(byMail.email) && !!m.subject?.includes('All clear: ')) ?? null,
    );
    expect(mail.raw).toContain('Roads are open again.');

    // Their screens say it in their language too.
    expect((await call<UserAlert>('GET', `/me/alerts/${alert.id}`, spanish.token)).body.allClear).toMatchObject({ message: allClear.translations.es.message });
    expect((await call<UserAlert>('GET', `/me/alerts/${alert.id}`, english.token)).body.allClear).toMatchObject({ message: allClear.message });
    expect((await call('POST', `/${alert.id}/all-clear/audience`, admin, {})).body).toMatchObject({ code: 'invalid_alert_status' });
  });

  it('retry: a stale preview retries nothing; the fresh one retries the failed; no token as before', async () => {
    const place = newPlace();
    const first = await person(place, { sms: true });
    const second = await person(place, { sms: true });
    sms.script = [400]; // the webhook refuses the batch: both SMS fail for good
    const alert = await sent(alertAt(place, 'Guard retry: dust storm'));
    expect(alert.deliveryLabel).toBe('Failed');
    const preview = (await call<AlertAudience>('POST', `/${alert.id}/retry/audience`, admin, { channel: 'sms' })).body;
    expect(preview).toMatchObject({ recipients: 2, channels: { sms: { recipients: 2, held: 0 } } });

    // One of them got through after all (the provider's late report).
    await stack.db.query(`UPDATE alerts.alert_deliveries SET status = 'sent' WHERE alert_id = $1 AND user_id = $2`, [alert.id, second.id]);
    const fresh = refused(
      await call('POST', `/${alert.id}/retry`, admin, { channel: 'sms' }, withToken(preview.token)),
      'audience_changed',
      'The audience changed since you checked: the retry would now reach 1 person, not 2. Check and send again.',
    );
    expect((await deliveries(alert.id)).find((d) => d.user_id === first.id)?.status).toBe('failed');

    expect((await call('POST', `/${alert.id}/retry`, admin, { channel: 'sms' }, withToken(fresh.token))).body).toEqual({ retried: 1 });
    await waitFor('the retried SMS', async () => (sms.received.some((c) => c.status === 200 && c.body.recipients.includes(first.phone!)) ? true : null));
    expect((await call('POST', `/${alert.id}/retry`, admin, { channel: 'sms' })).body).toEqual({ retried: 0 });
    expect((await call('POST', `/${alert.id}/retry/audience`, admin, { channel: 'fax' })).body).toMatchObject({ code: 'validation_failed' });
  });

  it('fallback: a stale preview adds nobody; the fresh one reaches everyone nothing reached', async () => {
    const place = newPlace();
    await person(place, { push: 'no device', email: true });
    const alert = await sent(alertAt(place, 'Guard fallback: heat wave', { channels: ['push'] }));
    expect(alert.recipients).toBe(0);
    const preview = (await call<AlertAudience>('POST', `/${alert.id}/fallback/audience`, admin, { channel: 'email' })).body;
    expect(preview).toMatchObject({ recipients: 1, channels: { email: { recipients: 1 } } });

    await person(place, { email: true });
    const fresh = refused(
      await call('POST', `/${alert.id}/fallback`, admin, { channel: 'email' }, withToken(preview.token)),
      'audience_changed',
      'The audience changed since you checked: sending to the unreached would now reach 2 people, not 1. Check and send again.',
    );
    expect(await deliveries(alert.id)).toEqual([]);
    // A token of the retry is not one of the fallback.
    const retryToken = (await call<AlertAudience>('POST', `/${alert.id}/retry/audience`, admin, { channel: 'email' })).body.token;
    refused(await call('POST', `/${alert.id}/fallback`, admin, { channel: 'email' }, withToken(retryToken)), 'audience_preview_mismatch');

    expect((await call('POST', `/${alert.id}/fallback`, admin, { channel: 'email' }, withToken(fresh.token))).body).toEqual({ added: 2 });
  });

  it('"not reached" counts only the people no chosen channel reaches', async () => {
    const place = newPlace();
    await person(place, { push: 'no device', sms: true }); // reached by SMS
    await person(place, { push: 'no device' }); // reached by nothing
    await person(place, { push: 'device' });
    await person(place, { email: true }); // none of the channels on
    const preview = await call<AlertAudience>('POST', '/audience', admin, alertAt(place, 'Guard: not reached', { channels: ['push', 'sms'] }));
    expect(preview.body).toMatchObject({
      concerned: 4,
      recipients: 2,
      channels: { push: { recipients: 1 }, sms: { recipients: 1 } },
      unreachable: { noChannel: 2, noDevice: 1 },
    });
  });
});

import { randomUUID } from 'node:crypto';
import { VOICE_LANGUAGE_TAGS, type AdminAlert, type ContactGroup, type ContactGroupMember } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { EXTERNAL_WORDS } from '../channels/external-recipient';
import { dispatcherService } from '../dispatcher.service';
import { alertsService } from '../service';
import { DispatchStack, TEST_TWILIO } from '../testing/dispatch-stack';
import { said } from '../testing/fake-twilio';

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://localhost:8080';
const GROUPS = '/admin/contact-groups';
/** Far from anywhere an area alert of these specs would cover: group members get group alerts wherever they live. */
const FLAGSTAFF = { lat: 35.1983, lng: -111.6513 };

const SPANISH = { title: 'Evacuación del laboratorio', message: 'Salga del edificio B por la escalera norte ahora.' };

interface DeliveryRow {
  user_id: string;
  channel: string;
  status: string;
}

/** A mail's body as written: quoted-printable soft breaks undone and its bytes read as UTF-8. */
const decoded = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/**
 * An alert to contact groups (issue #42), end to end through the alerts API and the dispatcher on PostgreSQL and Redis,
 * with Twilio (SMS and calls) and the mail relay faked: an external contact (no account) gets it by SMS, by phone and
 * by e-mail, never by push, in their language, with the words their messages need (how to stop SMS, no link that
 * needs an account); someone in two of the targeted groups gets one message per channel.
 */
describe('an alert to contact groups reaches their external contacts', () => {
  const stack = new DispatchStack();
  const { twilio, smtp } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  const call = jsonClient(() => alerts.url);

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL, SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    // Twilio calls back PUBLIC_URL; here the alerts API itself answers there.
    twilio.route(`${PUBLIC_URL}/api/alerts`, alerts.url);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'groups-admin@beacon.local', role: 'admin' });
    await stack.db.query(
      `INSERT INTO alerts.admin_settings (id, sms_provider, twilio_account_sid, twilio_auth_token, twilio_from, voice_enabled)
       VALUES (1, 'twilio', $1, $2, $3, true)
       ON CONFLICT (id) DO UPDATE SET sms_provider = 'twilio', twilio_account_sid = excluded.twilio_account_sid,
         twilio_auth_token = excluded.twilio_auth_token, twilio_from = excluded.twilio_from, voice_enabled = true`,
      [TEST_TWILIO.accountSid, TEST_TWILIO.authToken, TEST_TWILIO.from],
    );
  });

  afterAll(() => stack.close(dispatcher, alerts));

  async function newGroup(name: string): Promise<ContactGroup> {
    const res = await call<ContactGroup>('POST', GROUPS, admin, { name });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function addMember(groupId: string, member: Record<string, unknown>): Promise<ContactGroupMember> {
    const res = await call<ContactGroupMember>('POST', `${GROUPS}/${groupId}/members`, admin, member);
    expect(res.status).toBe(201);
    return res.body;
  }

  it('sends SMS, a call and an e-mail to an external contact, never push, in Spanish; one per channel to a person in two groups', async () => {
    const labs = await newGroup('Lab staff');
    const wardens = await newGroup('Fire wardens');
    const untargeted = await newGroup('Not this time');

    // a Beacon user in both groups, far from anything, following none of the alert's types, with push and SMS
    const userId = randomUUID();
    const userEmail = `warden-${userId.slice(0, 8)}@example.test`;
    const userToken = await stack.identity.token({ id: userId, email: userEmail });
    const userPhone = '+14805550201';
    expect(
      (
        await call('PUT', '/me/preferences', userToken, {
          alertTypes: ['events'],
          home: FLAGSTAFF,
          radiusMiles: 5,
          methods: { push: true, sms: true, email: false, voice: false },
          phoneNumber: userPhone,
        })
      ).status,
    ).toBe(200);
    const browser = stack.push.subscribe();
    expect((await call('POST', '/me/push-subscriptions', userToken, browser.json)).status).toBe(201);
    await addMember(labs.id, { kind: 'user', email: userEmail });
    await addMember(wardens.id, { kind: 'user', email: userEmail });

    // the same external contact in both groups (same phone and e-mail), and one in a group the alert does not target
    const phone = '+14805550202';
    const email = 'rosa@example.org';
    const inLabs = await addMember(labs.id, { kind: 'external', name: 'Rosa Díaz', phone, email, language: 'es' });
    const inWardens = await addMember(wardens.id, { kind: 'external', name: 'Rosa Díaz', phone, email, language: 'es' });
    const elsewhere = await addMember(untargeted.id, { kind: 'external', name: 'Sam Lee', phone: '+14805550203', email: 'sam@example.org' });

    const sent = await call<AdminAlert>(
      'POST',
      '',
      admin,
      {
        title: 'Lab evacuation',
        message: 'Leave building B by the north stairs now.',
        category: 'public_safety',
        severity: 'critical',
        channels: ['push', 'sms', 'email', 'voice'],
        groupIds: [labs.id, wardens.id, labs.id],
        translations: { es: SPANISH },
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(sent.status).toBe(201);
    const alertId = sent.body.id;

    // the messages arrive
    await waitFor('the SMS, the call and the e-mail to the external contact', () =>
      twilio.messages.some((m) => m.to === phone) && twilio.calls.some((c) => c.to === phone) && smtp.received.some((m) => m.to.includes(email)) ? true : null,
    );
    await waitFor('the user’s push and SMS', () => (stack.push.for(browser.id).length && twilio.messages.some((m) => m.to === userPhone) ? true : null));
    const rows = await waitFor('every delivery settled', async () => {
      const r = await stack.db.query<DeliveryRow>(`SELECT user_id, channel, status FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY channel`, [
        alertId,
      ]);
      return r.length && r.every((d) => !['pending', 'sending'].includes(d.status)) ? r : null;
    });

    // one external recipient for the person in two groups (the first of their two contacts), on every channel they have but push
    const contactIds = [inLabs.id, inWardens.id];
    const external = rows.filter((r) => contactIds.includes(r.user_id));
    expect(external.map((r) => r.channel).sort()).toEqual(['email', 'sms', 'voice']);
    expect(new Set(external.map((r) => r.user_id))).toEqual(new Set([contactIds.sort()[0]]));
    expect(rows.filter((r) => r.user_id === elsewhere.id)).toEqual([]);
    // the user in both groups: once per channel
    expect(
      rows
        .filter((r) => r.user_id === userId)
        .map((r) => r.channel)
        .sort(),
    ).toEqual(['push', 'sms']);
    expect(rows.filter((r) => r.channel === 'push').map((r) => r.user_id)).toEqual([userId]);

    // one SMS, one call, one e-mail to the external contact; one SMS and one push to the user
    expect(twilio.messages.filter((m) => m.to === phone)).toHaveLength(1);
    expect(twilio.calls.filter((c) => c.to === phone)).toHaveLength(1);
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
    expect(twilio.messages.filter((m) => m.to === userPhone)).toHaveLength(1);
    expect(stack.push.for(browser.id)).toHaveLength(1);

    // in Spanish, the SMS saying how to stop it
    const [sms] = twilio.messages.filter((m) => m.to === phone);
    expect(sms.body).toBe(`${SPANISH.title}\n\n${SPANISH.message}\n\n${EXTERNAL_WORDS.es.smsStop}`);
    // the user's SMS is as it always was
    expect(twilio.messages.find((m) => m.to === userPhone)!.body).toBe('Lab evacuation\n\nLeave building B by the north stairs now.');

    const [voice] = twilio.calls.filter((c) => c.to === phone);
    const spoken = said(voice.twiml!);
    expect(spoken.some((s) => s.language === VOICE_LANGUAGE_TAGS.es && s.text.includes(SPANISH.message))).toBe(true);

    const [mail] = smtp.received.filter((m) => m.to.includes(email));
    const body = decoded(mail.raw);
    expect(body).toContain(SPANISH.title);
    expect(body).toContain(SPANISH.message);
    expect(body).toContain(EXTERNAL_WORDS.es.emailWhy.slice(0, 40));
    // no link that needs an account (the alert's page, the alert list)
    expect(body).not.toContain(`${PUBLIC_URL}/alerts/`);
    expect(body).not.toContain('/dashboard/alerts');
    expect(body).not.toContain('Ver la alerta');
    expect(body).not.toContain('Lab evacuation');
  });

  it('through the SMS webhook, texts external contacts in a call of their own, with its own key and the STOP line', async () => {
    await stack.db.query(`UPDATE alerts.admin_settings SET sms_provider = 'webhook', webhook_url = NULL WHERE id = 1`);
    try {
      const group = await newGroup('Night shift');
      const id = randomUUID();
      const email = `night-${id.slice(0, 8)}@example.test`;
      const token = await stack.identity.token({ id, email });
      const userPhone = '+14805550301';
      const prefs = { alertTypes: ['events'], methods: { push: false, sms: true, email: false, voice: false }, phoneNumber: userPhone, language: 'fr' };
      expect((await call('PUT', '/me/preferences', token, prefs)).status).toBe(200);
      await addMember(group.id, { kind: 'user', email });
      const phone = '+14805550302';
      await addMember(group.id, { kind: 'external', name: 'Théo Martin', phone, language: 'fr' });

      const french = { title: 'Coupure de gaz', message: 'Ne rentrez pas dans le bâtiment C.' };
      const sent = await call<AdminAlert>(
        'POST',
        '',
        admin,
        {
          title: 'Gas leak',
          message: 'Do not enter building C.',
          category: 'public_safety',
          severity: 'critical',
          channels: ['sms'],
          groupIds: [group.id],
          translations: { fr: french },
        },
        { 'idempotency-key': randomUUID() },
      );
      expect(sent.status).toBe(201);
      const calls = await waitFor('both texts', () => {
        const mine = stack.sms.received.filter((c) => c.body.recipients.includes(phone) || c.body.recipients.includes(userPhone));
        return mine.length === 2 ? mine : null;
      });
      const toUser = calls.find((c) => c.body.recipients.includes(userPhone))!;
      const toExternal = calls.find((c) => c.body.recipients.includes(phone))!;
      expect(toUser.body).toMatchObject({ recipients: [userPhone], title: french.title, message: french.message, language: 'fr' });
      expect(toExternal.body).toMatchObject({
        recipients: [phone],
        title: french.title,
        message: `${french.message}\n\n${EXTERNAL_WORDS.fr.smsStop}`,
        language: 'fr',
      });
      expect(toExternal.idempotencyKey).not.toBe(toUser.idempotencyKey);
    } finally {
      await stack.db.query(`UPDATE alerts.admin_settings SET sms_provider = 'twilio' WHERE id = 1`);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  AdminAlert,
  AlertAuditEntry,
  JOB_QUEUE,
  JobIds,
  JobName,
  queuePrefix,
  REPLY_WORDS,
  VOICE_LANGUAGE_TAGS,
  VOICE_MAX_ATTEMPTS,
  VOICE_REDIAL_SECONDS,
  VOICE_WORDS,
  type DeliveryChannel,
} from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { dispatcherService } from '../dispatcher.service';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';
import { sendHeldNow } from '../testing/held-deliveries';
import { HELP_BY_CALL, HELP_BY_SMS } from './replies.service';
import { ProviderCallers, saveSecrets } from './testing/provider-callers';

jest.setTimeout(120_000);

const PUBLIC_URL = 'https://beacon.example.test';

interface Person {
  id: string;
  phone: string;
}

describe('replies by SMS and by phone keys, calls not answered, STOP and START, on PostgreSQL and Redis', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  const call = jsonClient(() => alerts.url);
  const providers = new ProviderCallers(() => alerts.url, PUBLIC_URL);
  let phones = 0;

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL, SWEEP_INTERVAL_SECONDS: '3600', ALERTS_RATE_PROVIDER_CALLBACKS_IP: '100000/60' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
    await saveSecrets((sql, params) => stack.db.query(sql, params));
  });

  afterAll(() => stack.close(dispatcher, alerts));

  /** Someone following weather alerts wherever they are, by SMS (and e-mail when asked), in `language`. */
  async function person(o: { language?: string; email?: boolean } = {}): Promise<Person> {
    const id = randomUUID();
    const token = await stack.identity.token({ id, email: `p-${id.slice(0, 8)}@example.test` });
    const phone = `+1480557${String(++phones).padStart(4, '0')}`;
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['weather'],
      methods: { push: false, sms: true, email: !!o.email, voice: true },
      phoneNumber: phone,
      ...(o.language ? { language: o.language } : {}),
    });
    expect(saved.status).toBe(200);
    return { id, phone };
  }

  async function sendAlert(channels: DeliveryChannel[]): Promise<AdminAlert> {
    const res = await call<AdminAlert>('POST', '', admin, {
      title: `Haboob ${randomUUID().slice(0, 6)}`,
      message: 'Pull aside, stay alive.',
      category: 'weather',
      severity: 'high',
      channels,
      everyone: true,
    });
    expect(res.status).toBe(201);
    // e-mails wait for the e-mail digest's hour (issue #40): the hour comes now
    if (channels.includes('email')) await sendHeldNow(stack, [res.body.id]);
    return res.body;
  }

  /** The alert's deliveries once none is waiting or being sent. */
  const settled = (alertId: string) =>
    waitFor(`alert ${alertId}'s deliveries settled`, async () => {
      const rows = await stack.db.query<{ id: string; user_id: string; channel: string; status: string }>(
        `SELECT id, user_id, channel, status FROM alerts.alert_deliveries WHERE alert_id = $1`,
        [alertId],
      );
      return rows.length && rows.every((r) => !['pending', 'sending'].includes(r.status)) ? rows : null;
    });

  /** A call placed for the alert to `who` (the voice sender's row, as it stands once Twilio took the call). */
  async function callPlaced(alertId: string, who: Person, attempts = 1): Promise<string> {
    const [row] = await stack.db.query<{ id: string }>(
      `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status, attempts, sent_at, provider_message_id)
       VALUES ($1, $2, 'voice', 'sent', $3, now(), $4) RETURNING id`,
      [alertId, who.id, attempts, `CA${randomUUID().replace(/-/g, '')}`],
    );
    return row.id;
  }

  const voiceRow = async (id: string) =>
    (
      await stack.db.query(
        `SELECT status, attempts, receipt, receipt_reason, error, last_error, next_attempt_at, delivered_at FROM alerts.alert_deliveries WHERE id = $1`,
        [id],
      )
    )[0];
  const responses = async (alertId: string) => (await call<AdminAlert>('GET', `/${alertId}`, admin)).body.responses;
  const replies = (alertId: string) =>
    stack.db.query(`SELECT channel, intent, user_id, delivery_id, provider_ref FROM alerts.delivery_replies WHERE alert_id = $1 ORDER BY received_at`, [
      alertId,
    ]);
  const replyAudit = async (alertId: string) =>
    (await call<AlertAuditEntry[]>('GET', `/${alertId}/audit`, admin)).body.filter((e) => e.action === 'reply_received');

  describe('voice', () => {
    it("answered, then key 1: I'm Safe tallied, said back in the person's language; a repeated key press records nothing more", async () => {
      const who = await person({ language: 'es' });
      const alert = await sendAlert(['sms']);
      await settled(alert.id);
      const id = await callPlaced(alert.id, who);

      const answered = await providers.twilio('twilioVoiceStatus', { CallSid: 'CA-ans', CallStatus: 'completed', CallDuration: '41' }, { deliveryId: id });
      expect(answered).toMatchObject({ status: 200, body: { applied: 1 } });
      expect(await voiceRow(id)).toMatchObject({ status: 'delivered', receipt: 'answered' });

      const pressed = await providers.twilio('twilioVoiceGather', { CallSid: 'CA-ans', Digits: '1', To: who.phone }, { deliveryId: id });
      expect(pressed.status).toBe(200);
      expect(pressed.contentType).toMatch(/^text\/xml/);
      expect(pressed.text).toBe(
        `<?xml version="1.0" encoding="UTF-8"?><Response><Say language="${VOICE_LANGUAGE_TAGS.es}">${VOICE_WORDS.es.safe}</Say><Hangup/></Response>`,
      );
      expect(await responses(alert.id)).toMatchObject({ safe: 1, needHelp: 0 });
      // Twilio retrying the same key press: the same words, nothing recorded twice
      expect((await providers.twilio('twilioVoiceGather', { CallSid: 'CA-ans', Digits: '1' }, { deliveryId: id })).text).toBe(pressed.text);
      expect(await replies(alert.id)).toEqual([{ channel: 'voice', intent: 'safe', user_id: who.id, delivery_id: id, provider_ref: 'CA-ans:gather' }]);
      expect(await replyAudit(alert.id)).toEqual([
        expect.objectContaining({ actorId: who.id, details: expect.objectContaining({ channel: 'voice', intent: 'safe' }) }),
      ]);
      // the read mark reaches the call's row: I'm Safe is final
      expect(await voiceRow(id)).toMatchObject({ status: 'read' });
    });

    it('key 2 opens a help request on the alert; another key hears the prompt again and records nothing', async () => {
      const who = await person();
      const alert = await sendAlert(['sms']);
      await settled(alert.id);
      const id = await callPlaced(alert.id, who);

      const again = await providers.twilio('twilioVoiceGather', { CallSid: 'CA-help', Digits: '7' }, { deliveryId: id });
      expect(again.text).toContain(`<Gather input="dtmf" numDigits="1"`);
      expect(again.text).toContain(`action="${PUBLIC_URL}/api/alerts/providers/twilio/voice/gather?d=${id}"`);
      expect(again.text).toContain(VOICE_WORDS.en.prompt);
      expect(await replies(alert.id)).toEqual([]);

      const help = await providers.twilio('twilioVoiceGather', { CallSid: 'CA-help', Digits: '2' }, { deliveryId: id });
      expect(help.text).toContain(`<Say language="en-US">${VOICE_WORDS.en.help}</Say><Hangup/>`);
      const requests = await stack.db.query(`SELECT user_id, message, status FROM alerts.help_requests WHERE alert_id = $1`, [alert.id]);
      expect(requests).toEqual([{ user_id: who.id, message: HELP_BY_CALL, status: 'open' }]);
      expect(await responses(alert.id)).toMatchObject({ needHelp: 1, helpOpen: 1 });
    });

    it('no answer: dialled again after VOICE_REDIAL_SECONDS while attempts remain, then failed with the reason', async () => {
      const who = await person();
      const alert = await sendAlert(['sms']);
      await settled(alert.id);
      const id = await callPlaced(alert.id, who);
      const queue = new Queue(JOB_QUEUE[JobName.VoiceSend], { connection: { url: stack.redis.url } as never, prefix: queuePrefix(stack.redis.prefix) });
      try {
        const before = Date.now();
        expect(await providers.twilio('twilioVoiceStatus', { CallSid: 'CA-1', CallStatus: 'no-answer' }, { deliveryId: id })).toMatchObject({
          body: { applied: 1 },
        });
        const waiting = await voiceRow(id);
        expect(waiting).toMatchObject({ status: 'pending', receipt: null, error: 'no answer', last_error: 'no answer' });
        expect(new Date(waiting.next_attempt_at).getTime()).toBeGreaterThanOrEqual(before + (VOICE_REDIAL_SECONDS - 5) * 1000);
        expect(new Date(waiting.next_attempt_at).getTime()).toBeLessThanOrEqual(Date.now() + (VOICE_REDIAL_SECONDS + 5) * 1000);

        const job = await queue.getJob(JobIds.voiceRedial(alert.id, id, 1));
        expect(job).toBeDefined();
        expect(job!.data).toMatchObject({ alertId: alert.id, channel: 'voice', deliveryIds: [id] });
        expect(job!.opts.delay).toBe(VOICE_REDIAL_SECONDS * 1000);
        expect(await job!.getState()).toBe('delayed');
        // the same callback again (the row is waiting now): nothing more
        expect(await providers.twilio('twilioVoiceStatus', { CallSid: 'CA-1', CallStatus: 'no-answer' }, { deliveryId: id })).toMatchObject({
          body: { applied: 0 },
        });
        await job!.remove();

        // the last call, placed by that redial chain, not answered either: failed with the reason
        await stack.db.query(`UPDATE alerts.alert_deliveries SET status = 'sent', attempts = $2, next_attempt_at = NULL, sent_at = now() WHERE id = $1`, [
          id,
          VOICE_MAX_ATTEMPTS,
        ]);
        expect(await providers.twilio('twilioVoiceStatus', { CallSid: 'CA-3', CallStatus: 'no-answer' }, { deliveryId: id })).toMatchObject({
          body: { applied: 1 },
        });
        expect(await voiceRow(id)).toMatchObject({ status: 'failed', receipt: 'no_answer', error: 'no answer', next_attempt_at: null });
        expect(await queue.getJob(JobIds.voiceRedial(alert.id, id, VOICE_MAX_ATTEMPTS))).toBeUndefined();
      } finally {
        await queue.close();
      }
    });

    it('busy on an alert no longer in effect is not dialled again; a failed call fails', async () => {
      const [a, b] = [await person(), await person()];
      const alert = await sendAlert(['sms']);
      await settled(alert.id);
      const [busy, broken] = [await callPlaced(alert.id, a), await callPlaced(alert.id, b)];
      await stack.db.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 minute' WHERE id = $1`, [alert.id]);

      expect(await providers.twilio('twilioVoiceStatus', { CallStatus: 'busy' }, { deliveryId: busy })).toMatchObject({ body: { applied: 1 } });
      expect(await voiceRow(busy)).toMatchObject({ status: 'failed', receipt: 'busy', error: 'busy' });
      expect(await providers.twilio('twilioVoiceStatus', { CallStatus: 'failed', ErrorCode: '13224' }, { deliveryId: broken })).toMatchObject({
        body: { applied: 1 },
      });
      expect(await voiceRow(broken)).toMatchObject({ status: 'failed', receipt: 'failed', error: 'the call could not be placed (Twilio error 13224)' });
    });
  });

  describe('SMS', () => {
    it("SAFE is I'm Safe on the latest alert sent to the number, recorded once however often the provider retries; HELP opens a request", async () => {
      const [safe, help] = [await person({ language: 'fr' }), await person()];
      const alert = await sendAlert(['sms']);
      await settled(alert.id);

      const first = await providers.twilio('twilioSmsInbound', { From: safe.phone, To: '+15005550006', Body: ' safe ', MessageSid: 'SM-dup' });
      expect(first).toMatchObject({
        status: 200,
        text: `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${REPLY_WORDS.fr.safe}</Message></Response>`,
      });
      expect(first.contentType).toMatch(/^text\/xml/);
      const retried = await providers.twilio('twilioSmsInbound', { From: safe.phone, To: '+15005550006', Body: ' safe ', MessageSid: 'SM-dup' });
      expect(retried.text).toBe(first.text);

      const helped = await providers.webhook('webhookInbound', { from: help.phone, text: 'HELP', id: 'gw-1' });
      expect(helped).toMatchObject({ status: 200, body: { reply: REPLY_WORDS.en.help } });
      expect(await providers.webhook('webhookInbound', { from: help.phone, text: 'what now?', id: 'gw-2' })).toMatchObject({
        body: { reply: REPLY_WORDS.en.choices },
      });

      expect(await responses(alert.id)).toMatchObject({ safe: 1, needHelp: 1 });
      expect(await stack.db.query(`SELECT message FROM alerts.help_requests WHERE alert_id = $1`, [alert.id])).toEqual([{ message: HELP_BY_SMS }]);
      expect((await replies(alert.id)).map((r: { intent: string; provider_ref: string }) => [r.intent, r.provider_ref])).toEqual([
        ['safe', 'SM-dup'],
        ['help', 'webhook:gw-1'],
        ['other', 'webhook:gw-2'],
      ]);
      const audit = await replyAudit(alert.id);
      expect(audit.map((e) => [e.details.channel, e.details.intent])).toEqual([
        ['sms', 'safe'],
        ['sms', 'help'],
        ['sms', 'other'],
      ]);
      // no number, no text in the audit
      expect(JSON.stringify(audit)).not.toContain(safe.phone.slice(2));
      expect(JSON.stringify(audit)).not.toContain('what now');
    });

    it('STOP is stored before the answer and leaves the number out of the next alert’s SMS; START brings it back', async () => {
      const who = await person({ email: true, language: 'vi' });
      const first = await sendAlert(['sms', 'email']);
      await settled(first.id);

      const stopped = await providers.twilio('twilioSmsInbound', { From: who.phone, Body: 'STOP', MessageSid: 'SM-stop' });
      expect(stopped.text).toContain(`<Message>${REPLY_WORDS.vi.stop}</Message>`);
      // by the time the answer came, the opt-out was committed
      expect(await stack.db.query(`SELECT phone_number FROM alerts.sms_opt_outs WHERE phone_number = $1`, [who.phone])).toHaveLength(1);
      expect(await stack.db.query(`SELECT sms_stopped FROM alerts.user_preferences WHERE user_id = $1`, [who.id])).toEqual([{ sms_stopped: true }]);

      const next = await sendAlert(['sms', 'email']);
      const rows = (await settled(next.id)).filter((r) => r.user_id === who.id);
      expect(rows.map((r) => r.channel)).toEqual(['email']);

      const started = await providers.webhook('webhookInbound', { from: who.phone, text: 'start', id: 'gw-start' });
      expect(started).toMatchObject({ status: 200, body: { reply: REPLY_WORDS.vi.start } });
      expect(await stack.db.query(`SELECT 1 FROM alerts.sms_opt_outs WHERE phone_number = $1`, [who.phone])).toEqual([]);
      expect(await stack.db.query(`SELECT sms_stopped FROM alerts.user_preferences WHERE user_id = $1`, [who.id])).toEqual([{ sms_stopped: false }]);
      const third = await sendAlert(['sms', 'email']);
      expect(
        (await settled(third.id))
          .filter((r) => r.user_id === who.id)
          .map((r) => r.channel)
          .sort(),
      ).toEqual(['email', 'sms']);
    });

    it('a STOP from a number no recent alert went to still stops it; a forged STOP stores nothing', async () => {
      const stranger = '+14805559876';
      const forged = await providers.twilio('twilioSmsInbound', { From: stranger, Body: 'STOP', MessageSid: 'SM-forged' }, { token: 'guessed' });
      expect(forged).toMatchObject({ status: 403, body: { code: 'invalid_signature' } });
      expect(await stack.db.query(`SELECT 1 FROM alerts.sms_opt_outs WHERE phone_number = $1`, [stranger])).toEqual([]);
      expect(await stack.db.query(`SELECT 1 FROM alerts.delivery_replies WHERE provider_ref = 'SM-forged'`)).toEqual([]);

      const real = await providers.twilio('twilioSmsInbound', { From: stranger, Body: 'Stop.', MessageSid: 'SM-stranger' });
      expect(real.text).toContain(`<Message>${REPLY_WORDS.en.stop}</Message>`);
      expect(await stack.db.query(`SELECT 1 FROM alerts.sms_opt_outs WHERE phone_number = $1`, [stranger])).toHaveLength(1);
      expect(await stack.db.query(`SELECT alert_id, intent FROM alerts.delivery_replies WHERE provider_ref = 'SM-stranger'`)).toEqual([
        { alert_id: null, intent: 'stop' },
      ]);
      // SAFE from it: nothing to answer
      expect((await providers.twilio('twilioSmsInbound', { From: stranger, Body: 'SAFE', MessageSid: 'SM-stranger-2' })).text).toContain(
        REPLY_WORDS.en.noAlert,
      );
    });
  });
});

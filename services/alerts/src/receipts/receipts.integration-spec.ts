import { randomUUID } from 'node:crypto';
import type { AdminAlert, DeliveryChannel } from '@beacon/contracts';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { twilioSignature } from '../providers/twilio-signature';
import { dispatcherService } from '../dispatcher.service';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';
import { sendHeldNow } from '../testing/held-deliveries';
import { ProviderCallers, saveSecrets, TEST_SECRETS } from './testing/provider-callers';

jest.setTimeout(120_000);

const PUBLIC_URL = 'https://beacon.example.test';

interface Row {
  id: string;
  user_id: string;
  status: string;
  receipt: string | null;
  receipt_reason: string | null;
  receipt_at: Date | null;
  error: string | null;
  last_error: string | null;
  delivered_at: Date | null;
}

describe('receipts from the providers (SMS webhook, Twilio, the mail relay) move deliveries, on PostgreSQL and Redis', () => {
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

  /** `n` people following weather alerts wherever they are, on the channels given. */
  async function people(n: number, methods: { sms?: boolean; email?: boolean }) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const token = await stack.identity.token({ id, email: `r-${id.slice(0, 8)}@example.test` });
      const saved = await call('PUT', '/me/preferences', token, {
        alertTypes: ['weather'],
        methods: { push: false, sms: !!methods.sms, email: !!methods.email, voice: false },
        phoneNumber: methods.sms ? `+1602556${String(++phones).padStart(4, '0')}` : null,
      });
      expect(saved.status).toBe(200);
      ids.push(id);
    }
    return ids;
  }

  /** An alert to everyone following weather, and its deliveries on `channel` to `users` once all are sent. */
  async function sent(channel: DeliveryChannel, users: string[]): Promise<{ alert: AdminAlert; rows: Row[] }> {
    const res = await call<AdminAlert>('POST', '', admin, {
      title: `Dust storm ${randomUUID().slice(0, 6)}`,
      message: 'Pull aside, stay alive.',
      category: 'weather',
      severity: 'high',
      channels: [channel],
      everyone: true,
    });
    expect(res.status).toBe(201);
    // e-mails wait for the e-mail digest's hour (issue #40): the hour comes now
    if (channel === 'email') await sendHeldNow(stack, [res.body.id]);
    const rows = await waitFor(`the ${channel} deliveries sent`, async () => {
      const found = await rowsOf(res.body.id, channel);
      const mine = found.filter((r) => users.includes(r.user_id));
      return mine.length === users.length && mine.every((r) => r.status === 'sent') ? mine : null;
    });
    return { alert: res.body, rows };
  }

  const rowsOf = (alertId: string, channel: DeliveryChannel) =>
    stack.db.query<Row>(
      `SELECT id, user_id, status, receipt, receipt_reason, receipt_at, error, last_error, delivered_at FROM alerts.alert_deliveries
       WHERE alert_id = $1 AND channel = $2 ORDER BY user_id`,
      [alertId, channel],
    );
  const row = async (id: string) =>
    (
      await stack.db.query<Row>(
        `SELECT id, user_id, status, receipt, receipt_reason, receipt_at, error, last_error, delivered_at FROM alerts.alert_deliveries WHERE id = $1`,
        [id],
      )
    )[0];
  const summary = async (alertId: string) => (await call<AdminAlert>('GET', `/${alertId}`, admin)).body.summary;

  describe('SMS', () => {
    it("the webhook's receipts make sent delivered, or failed with the gateway's reason; the first receipt wins", async () => {
      const users = await people(2, { sms: true });
      const { alert, rows } = await sent('sms', users);
      const [a, b] = rows;

      const res = await providers.webhook('webhookStatus', {
        receipts: [
          { deliveryId: a.id, status: 'delivered', at: new Date(Date.now() - 5000).toISOString() },
          { deliveryId: b.id, status: 'undelivered', reason: 'carrier rejected: unknown subscriber' },
        ],
      });
      expect(res).toMatchObject({ status: 200, body: { applied: 2 } });

      expect(await row(a.id)).toMatchObject({ status: 'delivered', receipt: 'delivered', error: null });
      expect((await row(a.id)).delivered_at).not.toBeNull();
      expect(await row(b.id)).toMatchObject({
        status: 'failed',
        receipt: 'undelivered',
        receipt_reason: 'carrier rejected: unknown subscriber',
        error: 'carrier rejected: unknown subscriber',
        last_error: 'carrier rejected: unknown subscriber',
      });
      expect((await summary(alert.id)).sms).toMatchObject({ sent: 0, delivered: 1, failed: 1 });

      // A late receipt of another kind, and a repeated one, change nothing.
      const late = await providers.webhook('webhookStatus', {
        receipts: [
          { deliveryId: b.id, status: 'delivered' },
          { deliveryId: a.id, status: 'failed', reason: 'too late' },
        ],
      });
      expect(late).toMatchObject({ status: 200, body: { applied: 0 } });
      expect(await row(a.id)).toMatchObject({ status: 'delivered', receipt: 'delivered' });
      expect(await row(b.id)).toMatchObject({ status: 'failed', receipt: 'undelivered' });

      // An operator's retry sends it again: the new message waits for its own receipt.
      expect(await call('POST', `/${alert.id}/retry`, admin, { channel: 'sms' })).toMatchObject({ status: 200, body: { retried: 1 } });
      await waitFor('the retried SMS sent', async () => ((await row(b.id)).status === 'sent' ? true : null));
      expect(await row(b.id)).toMatchObject({ receipt: null, receipt_reason: null, error: null });
      expect(await providers.webhook('webhookStatus', { receipts: [{ deliveryId: b.id, status: 'delivered' }] })).toMatchObject({ body: { applied: 1 } });
      expect(await row(b.id)).toMatchObject({ status: 'delivered', receipt: 'delivered', last_error: 'carrier rejected: unknown subscriber' });
    });

    it("Twilio's status callback: statuses on the way change nothing, delivered delivers, undelivered fails with the error in words", async () => {
      const users = await people(2, { sms: true });
      const { rows } = await sent('sms', users);
      const [a, b] = rows;

      expect(await providers.twilio('twilioSmsStatus', { MessageSid: 'SM1', MessageStatus: 'sent' }, { deliveryId: a.id })).toMatchObject({
        status: 200,
        body: { applied: 0 },
      });
      expect(await row(a.id)).toMatchObject({ status: 'sent', receipt: null });

      expect(await providers.twilio('twilioSmsStatus', { MessageSid: 'SM1', MessageStatus: 'delivered' }, { deliveryId: a.id })).toMatchObject({
        status: 200,
        body: { applied: 1 },
      });
      expect(await row(a.id)).toMatchObject({ status: 'delivered', receipt: 'delivered' });

      const failed = await providers.twilio('twilioSmsStatus', { MessageSid: 'SM2', MessageStatus: 'undelivered', ErrorCode: '30003' }, { deliveryId: b.id });
      expect(failed).toMatchObject({ status: 200, body: { applied: 1 } });
      expect(await row(b.id)).toMatchObject({ status: 'failed', receipt: 'undelivered', error: 'the handset is unreachable (Twilio error 30003)' });
    });

    it('a receipt for an unknown delivery, or naming none, is answered 200 and changes nothing', async () => {
      const before = await stack.db.query(`SELECT id, status, receipt FROM alerts.alert_deliveries ORDER BY id`);
      expect(
        await providers.webhook('webhookStatus', {
          receipts: [
            { deliveryId: randomUUID(), status: 'delivered' },
            { deliveryId: 'SM-not-ours', status: 'failed' },
          ],
        }),
      ).toMatchObject({
        status: 200,
        body: { applied: 0 },
      });
      expect(await providers.twilio('twilioSmsStatus', { MessageStatus: 'delivered' }, { deliveryId: randomUUID() })).toMatchObject({
        status: 200,
        body: { applied: 0 },
      });
      expect(await providers.twilio('twilioSmsStatus', { MessageStatus: 'delivered' })).toMatchObject({ status: 200, body: { applied: 0 } });
      expect(await stack.db.query(`SELECT id, status, receipt FROM alerts.alert_deliveries ORDER BY id`)).toEqual(before);
    });
  });

  describe('digests', () => {
    it('a receipt of a digest speaks for every delivery it carried (merged_into)', async () => {
      const users = await people(2, { sms: true });
      const first = await sent('sms', users);
      const second = await sent('sms', users);
      // each user's second alert carried in the first one's message, as a held claim merges them
      for (const u of users) {
        const lead = first.rows.find((r) => r.user_id === u)!;
        const carried = second.rows.find((r) => r.user_id === u)!;
        await stack.db.query(`UPDATE alerts.alert_deliveries SET merged_into = $1 WHERE id = $2`, [lead.id, carried.id]);
      }
      const [okLead, badLead] = users.map((u) => first.rows.find((r) => r.user_id === u)!);
      const [okCarried, badCarried] = users.map((u) => second.rows.find((r) => r.user_id === u)!);

      const res = await providers.webhook('webhookStatus', {
        receipts: [
          { deliveryId: okLead.id, status: 'delivered' },
          { deliveryId: badLead.id, status: 'failed', reason: 'number barred' },
        ],
      });
      expect(res).toMatchObject({ status: 200, body: { applied: 4 } });
      expect(await row(okCarried.id)).toMatchObject({ status: 'delivered', receipt: 'delivered' });
      expect(await row(badCarried.id)).toMatchObject({ status: 'failed', receipt: 'failed', error: 'number barred' });
      expect((await summary(second.alert.id)).sms).toMatchObject({ delivered: 1, failed: 1 });
    });
  });

  describe('e-mail', () => {
    it("a permanent failure bounces with the relay's reason, a complaint is only recorded, a temporary failure changes nothing", async () => {
      const users = await people(3, { email: true });
      const { alert, rows } = await sent('email', users);
      const [bounced, complained, delayed] = rows;
      const event = (e: Record<string, unknown>, deliveryId: string) => ({ timestamp: Date.now() / 1000, 'user-variables': { deliveryId }, ...e });

      const bounce = await providers.mailEvent(
        event({ event: 'failed', severity: 'permanent', 'delivery-status': { code: 550, message: '5.1.1 mailbox does not exist' } }, bounced.id),
      );
      expect(bounce).toMatchObject({ status: 200, body: { applied: 1 } });
      expect(await row(bounced.id)).toMatchObject({ status: 'failed', receipt: 'bounced', error: '550 5.1.1 mailbox does not exist' });

      expect(await providers.mailEvent(event({ event: 'delivered' }, complained.id))).toMatchObject({ status: 200, body: { applied: 1 } });
      expect(await providers.mailEvent(event({ event: 'complained' }, complained.id))).toMatchObject({ status: 200, body: { applied: 1 } });
      expect(await row(complained.id)).toMatchObject({ status: 'delivered', receipt: 'complained', receipt_reason: 'marked as spam by the recipient' });

      expect(await providers.mailEvent(event({ event: 'failed', severity: 'temporary' }, delayed.id))).toMatchObject({ status: 200, body: { applied: 0 } });
      expect(await row(delayed.id)).toMatchObject({ status: 'sent', receipt: null });
      expect((await summary(alert.id)).email).toMatchObject({ sent: 1, delivered: 1, failed: 1 });
    });
  });

  describe('forged callbacks', () => {
    it('a bad, missing or stale signature, or a replayed mail token, is refused (401/403 invalid_signature) and changes nothing', async () => {
      const users = await people(1, { sms: true });
      const { rows } = await sent('sms', users);
      const [target] = rows;
      const other = randomUUID();
      const delivered = { MessageSid: 'SMx', MessageStatus: 'undelivered', ErrorCode: '30005' };

      const forged = [
        await providers.twilio('twilioSmsStatus', delivered, { deliveryId: target.id, token: 'not-the-token' }),
        await providers.twilio('twilioSmsStatus', delivered, { deliveryId: target.id, signature: null }),
        // signed for another delivery, replayed on this one
        await providers.twilio('twilioSmsStatus', delivered, {
          deliveryId: target.id,
          signedUrl: `${PUBLIC_URL}/api/alerts/providers/twilio/sms/status?d=${other}`,
        }),
        // a form changed after signing
        await providers.twilio('twilioSmsStatus', delivered, {
          deliveryId: target.id,
          signature: twilioSignature(
            `${PUBLIC_URL}/api/alerts/providers/twilio/sms/status?d=${target.id}`,
            { ...delivered, MessageStatus: 'delivered' },
            TEST_SECRETS.twilioAuthToken,
          ),
        }),
      ];
      for (const res of forged) expect(res).toMatchObject({ status: 403, body: { code: 'invalid_signature' } });

      const receipts = { receipts: [{ deliveryId: target.id, status: 'failed', reason: 'forged' }] };
      const refused = [
        await providers.webhook('webhookStatus', receipts, { secret: 'guessed' }),
        await providers.webhook('webhookStatus', receipts, { header: null }),
        await providers.webhook('webhookStatus', receipts, { t: Math.floor(Date.now() / 1000) - 301 }),
        await providers.webhook('webhookStatus', receipts, { tamper: (raw) => raw.replace('forged', 'forged!') }),
        // unsigned and badly shaped: still the signature that is refused, not the shape
        await providers.webhook('webhookStatus', { receipts: 'all of them' }, { header: null }),
        await providers.mailEvent({ event: 'failed', severity: 'permanent', 'user-variables': { deliveryId: target.id } }, { key: 'guessed' }),
        await providers.mailEvent(
          { event: 'failed', severity: 'permanent', 'user-variables': { deliveryId: target.id } },
          { timestamp: Math.floor(Date.now() / 1000) - 301 },
        ),
      ];
      for (const res of refused) expect(res).toMatchObject({ status: 401, body: { code: 'invalid_signature' } });

      // A signed body of the wrong shape is the gateway's mistake: 400.
      expect(await providers.webhook('webhookStatus', { receipts: [{ deliveryId: target.id, status: 'lost' }] })).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      });

      // A mail event replayed with its token: refused the second time.
      const token = 'a'.repeat(50);
      const complaint = { event: 'complained', 'user-variables': { deliveryId: target.id } };
      expect(await providers.mailEvent({ event: 'opened', 'user-variables': { deliveryId: target.id } }, { token })).toMatchObject({ status: 200 });
      expect(await providers.mailEvent(complaint, { token })).toMatchObject({ status: 401, body: { code: 'invalid_signature' } });

      expect(await row(target.id)).toMatchObject({ status: 'sent', receipt: null, error: null });
    });

    it('with no secret saved, every callback is refused', async () => {
      const users = await people(1, { sms: true });
      const { rows } = await sent('sms', users);
      await saveSecrets((sql, params) => stack.db.query(sql, params), {});
      try {
        expect(await providers.twilio('twilioSmsStatus', { MessageStatus: 'delivered' }, { deliveryId: rows[0].id, token: '' })).toMatchObject({ status: 403 });
        expect(await providers.webhook('webhookStatus', { receipts: [{ deliveryId: rows[0].id, status: 'delivered' }] }, { secret: '' })).toMatchObject({
          status: 401,
        });
        expect(await providers.mailEvent({ event: 'delivered', 'user-variables': { deliveryId: rows[0].id } }, { key: '' })).toMatchObject({ status: 401 });
      } finally {
        await saveSecrets((sql, params) => stack.db.query(sql, params));
      }
      expect(await row(rows[0].id)).toMatchObject({ status: 'sent', receipt: null });
    });
  });

  describe('rate limit', () => {
    it('the callbacks count against ALERTS_RATE_PROVIDER_CALLBACKS_IP: past it, 429 before any signature is checked', async () => {
      // a replica of its own, counting on keys of its own (the stack's prefix starts them: cleaned up with it)
      const limited = await startTestService(alertsService, {
        ...stack.vars,
        REDIS_PREFIX: `${stack.redis.prefix}-rl`,
        ALERTS_RATE_PROVIDER_CALLBACKS_IP: '2/60',
      });
      try {
        const callers = new ProviderCallers(() => limited.url, PUBLIC_URL);
        const answers = [
          await callers.webhook('webhookStatus', { receipts: [] }, { header: null }),
          await callers.twilio('twilioSmsInbound', { From: '+14805550000', Body: 'STOP', MessageSid: 'SM-limit' }, { signature: null }),
          await callers.mailEvent({ event: 'delivered' }),
        ];
        expect(answers.map((a) => a.status)).toEqual([401, 403, 429]);
        expect(answers[2].body).toMatchObject({ code: 'rate_limited' });
      } finally {
        await limited.close();
      }
    });
  });

  describe('out of order', () => {
    it('a delivered receipt that beats the outcome ends delivered; a failing one ends failed with its reason', async () => {
      const users = await people(2, { sms: true });
      const { rows } = await sent('sms', users);
      const [early, failing] = rows;
      // as if the provider's receipt came while the batch was still being sent
      await stack.db.query(`UPDATE alerts.alert_deliveries SET status = 'sending', sent_at = NULL WHERE id = ANY($1::uuid[])`, [[early.id, failing.id]]);

      expect(await providers.twilio('twilioSmsStatus', { MessageStatus: 'delivered' }, { deliveryId: early.id })).toMatchObject({ body: { applied: 1 } });
      expect(
        await providers.webhook('webhookStatus', { receipts: [{ deliveryId: failing.id, status: 'undelivered', reason: 'handset off for days' }] }),
      ).toMatchObject({
        body: { applied: 1 },
      });
      expect(await row(early.id)).toMatchObject({ status: 'sending', receipt: 'delivered' });
      expect(await row(failing.id)).toMatchObject({ status: 'sending', receipt: 'undelivered' });

      // the outcome the sender writes after the provider took both
      await alerts.app.get(DeliveriesRepository).recordOutcomes(
        [
          { id: early.id, ok: true, messageId: 'm-early' },
          { id: failing.id, ok: true, messageId: 'm-failing' },
        ],
        false,
      );
      expect(await row(early.id)).toMatchObject({ status: 'delivered', receipt: 'delivered', error: null });
      expect(await row(failing.id)).toMatchObject({
        status: 'failed',
        receipt: 'undelivered',
        error: 'handset off for days',
        last_error: 'handset off for days',
      });
    });
  });
});

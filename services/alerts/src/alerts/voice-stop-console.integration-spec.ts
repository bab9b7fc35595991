import { randomBytes, randomUUID } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import type { AlertAudience, AlertDeliveryRow, DeliveryChannel, Page } from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

const place = destination({ lat: 33.45, lng: -112.07 }, 40, 30);

/**
 * Issue #39 in the console: the audience preview counts voice calls per channel as it counts SMS, with voice's own
 * readiness, and says how many people it cannot reach because their number replied STOP; the delivery list and the
 * per-recipient report show each delivery's receipt, when it came and the provider's reason, never call a delivery
 * only accepted by a provider "Delivered", say why a STOPped number got no SMS, and mask the number a call went to.
 */
describe('voice, receipts and STOP in the console', () => {
  const api = new AlertsApi();
  const call = api.call;
  let admin: string;
  const people: Record<string, { id: string; phone: string | null }> = {};

  async function person(name: string, methods: { sms?: boolean; voice?: boolean; email?: boolean }, phone: string | null, stopped = false) {
    const id = randomUUID();
    const token = await api.identity.token({ id, email: `${name}-${id.slice(0, 6)}@example.test` });
    const saved = await call('PUT', '/me/preferences', token, {
      alertTypes: ['weather'],
      severityThreshold: 'low',
      home: place,
      radiusMiles: 5,
      methods: { push: false, sms: false, email: false, voice: false, ...methods },
      phoneNumber: phone,
    });
    expect(saved.status).toBe(200);
    // STOP as the reply handling records it: the number kept, and its owner's preferences marked
    if (stopped) {
      await api.db.query(`INSERT INTO alerts.sms_opt_outs (phone_number) VALUES ($1)`, [phone]);
      await api.db.query(`UPDATE alerts.user_preferences SET sms_stopped = true WHERE phone_number = $1`, [phone]);
    }
    people[name] = { id, phone };
  }

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
    await person('smsAndVoice', { sms: true, voice: true }, '+16025550101');
    await person('stoppedSmsOnly', { sms: true }, '+16025550102', true);
    await person('stoppedWithVoice', { sms: true, voice: true }, '+16025550103', true);
    await person('stoppedWithEmail', { sms: true, email: true }, '+16025550104', true);
    await person('emailOnly', { email: true }, null);
  });

  afterAll(() => api.close());

  const preview = async (channels: DeliveryChannel[]) => {
    const res = await call<AlertAudience>('POST', '/audience', admin, {
      title: 'Flash flood warning',
      message: 'Move to higher ground now.',
      category: 'weather',
      severity: 'high',
      ...place,
      radiusKm: 5,
      channels,
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('counts voice per channel like SMS, and those whom only a STOPped number would have reached apart', async () => {
    const a = await preview(['sms', 'voice']);
    expect(a).toMatchObject({ concerned: 5, recipients: 2 });
    expect(a.channels.sms).toMatchObject({ recipients: 1, held: 0 });
    expect(a.channels.voice).toEqual({
      recipients: 2,
      held: 0,
      configured: false,
      reason: 'No Twilio account is set in Admin Settings for voice calls: voice calls will not be made.',
    });
    // stoppedSmsOnly and stoppedWithEmail: their number replied STOP, and no other channel of the alert reaches them
    expect(a.unreachable).toEqual({ noChannel: 3, noDevice: 0, smsStopped: 2 });

    // by e-mail too: stoppedWithEmail is reached; stoppedWithVoice is not (voice is not among these channels)
    expect((await preview(['sms', 'email'])).unreachable).toEqual({ noChannel: 2, noDevice: 0, smsStopped: 2 });
    // without SMS, STOP is nobody's reason
    expect((await preview(['voice'])).unreachable).toEqual({ noChannel: 3, noDevice: 0 });
  });

  it('reads voice ready once the Twilio account is saved and voice calls are on', async () => {
    const saved = await call('PUT', '/admin/settings', admin, {
      twilio: { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: 'token-5678', fromNumber: '+16025550100' },
      voice: { enabled: true },
    });
    expect(saved.status).toBe(200);
    expect((await preview(['voice'])).channels.voice).toEqual({ recipients: 2, held: 0, configured: true });
  });

  it('lists and reports each delivery with its receipt, its time and the reason, the STOP and the masked number called', async () => {
    const [{ id: alertId }] = await api.db.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, sent_at)
       VALUES ('Flash flood warning', 'Move to higher ground now.', 'weather', 'high', 'weather', '{sms,voice,email}', 'active', now()) RETURNING id`,
    );
    const at = '2026-03-04T05:06:07.000Z';
    const row = (name: string, channel: DeliveryChannel, status: string, o: { receipt?: string; reason?: string; error?: string } = {}) =>
      api.db.query(
        `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status, attempts, sent_at, delivered_at, error, receipt, receipt_at, receipt_reason)
         VALUES ($1, $2, $3, $4, 1, CASE WHEN $4 <> 'cancelled' THEN now() END, CASE WHEN $4 = 'delivered' THEN $6::timestamptz END, $5, $7,
                 CASE WHEN $7::text IS NOT NULL THEN $6::timestamptz END, $8)`,
        [alertId, people[name].id, channel, status, o.error ?? null, at, o.receipt ?? null, o.reason ?? null],
      );
    await row('smsAndVoice', 'sms', 'sent');
    await row('smsAndVoice', 'voice', 'delivered', { receipt: 'answered' });
    await row('stoppedWithVoice', 'voice', 'failed', { receipt: 'no_answer', reason: 'no answer', error: 'no answer' });
    await row('stoppedSmsOnly', 'sms', 'cancelled', { error: 'the number replied STOP' });
    await row('emailOnly', 'email', 'failed', { receipt: 'bounced', reason: '550 5.1.1 mailbox unknown', error: '550 5.1.1 mailbox unknown' });

    const list = await call<Page<AlertDeliveryRow>>('GET', `/${alertId}/deliveries?pageSize=50`, admin);
    expect(list.status).toBe(200);
    const of = (name: string, channel: DeliveryChannel) => list.body.items.find((d) => d.userId === people[name].id && d.channel === channel)!;
    expect(of('smsAndVoice', 'sms')).toMatchObject({ status: 'sent', statusLabel: 'Sent to provider', receipt: null, receiptAt: null, receiptReason: null });
    expect(of('smsAndVoice', 'voice')).toMatchObject({
      status: 'delivered',
      statusLabel: 'Delivered',
      receipt: 'answered',
      receiptAt: at,
      receiptReason: null,
      contact: '+1•••••0101',
    });
    expect(of('stoppedWithVoice', 'voice')).toMatchObject({ statusLabel: 'Failed', receipt: 'no_answer', receiptReason: 'no answer', contact: '+1•••••0103' });
    expect(of('stoppedSmsOnly', 'sms')).toMatchObject({ status: 'cancelled', statusLabel: 'Cancelled', error: 'the number replied STOP', receipt: null });
    expect(of('emailOnly', 'email')).toMatchObject({ receipt: 'bounced', receiptReason: '550 5.1.1 mailbox unknown' });

    const csv = await fetch(`${api.service.url}/${alertId}/deliveries.csv`, { headers: { authorization: `Bearer ${admin}` } });
    expect(csv.status).toBe(200);
    const [header, ...lines]: string[][] = parseCsv(await csv.text());
    expect(header.slice(-3)).toEqual(['Receipt', 'Receipt at', 'Receipt reason']);
    const col = (name: string) => header.indexOf(name);
    const line = (name: string, channel: string) => {
      const l = lines.find((x) => x[col('User')] === people[name].id && x[col('Channel')] === channel)!;
      return ['Contact', 'Status', 'Called off because', 'Receipt', 'Receipt at', 'Receipt reason'].map((c) => l[col(c)]);
    };
    expect(line('smsAndVoice', 'SMS')).toEqual(["'+1•••••0101", 'Sent to provider', '', '', '', '']);
    expect(line('smsAndVoice', 'Voice call')).toEqual(["'+1•••••0101", 'Delivered', '', 'Answered', at, '']);
    expect(line('stoppedWithVoice', 'Voice call')).toEqual(["'+1•••••0103", 'Failed', '', 'No answer', at, 'no answer']);
    expect(line('stoppedSmsOnly', 'SMS')).toEqual(["'+1•••••0102", 'Cancelled', 'the number replied STOP', '', '', '']);
    expect(line('emailOnly', 'Email')).toEqual([expect.stringMatching(/^e•••@example\.test$/), 'Failed', '', 'Bounced', at, '550 5.1.1 mailbox unknown']);
    // nowhere is a delivery only accepted by a provider said to be delivered
    expect(lines.filter((l) => l[col('Status')] === 'Delivered').map((l) => l[col('Channel')])).toEqual(['Voice call']);
  });
});

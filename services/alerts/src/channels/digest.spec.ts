import { carried } from './channel-batch.runner';
import type { ChannelMessage, SendableAlert } from './send-targets.repository';
import type { ClaimedHeldDelivery } from '../deliveries/deliveries.repository';
import { randomUUID } from 'node:crypto';
import { pushPayload } from './push.sender';
import { encryptPayload } from './web-push.crypto';
import { byUrgency, digestPushBody, digestSmsText, digestTitle, emailAlertHtml, SMS_DIGEST_MAX_CHARS, toMessages } from './digest';

const alert = (id: string, severity: SendableAlert['severity'], title: string, sentAt: string, extra: Partial<SendableAlert> = {}): SendableAlert => ({
  id,
  title,
  message: `${title}.`,
  translations: {},
  language: 'en',
  type: 'weather',
  severity,
  category: 'weather',
  location_name: null,
  status: 'active',
  sent_at: new Date(sentAt),
  created_at: new Date(sentAt),
  expired: false,
  ...extra,
});

const dust = alert('a1', 'high', 'Dust storm', '2026-11-24T10:00:00Z', { location_name: 'I-17' });
const wind = alert('a2', 'medium', 'Wind advisory', '2026-11-24T10:30:00Z');
const frost = alert('a3', 'medium', 'Frost tonight', '2026-11-24T10:40:00Z');
const alerts = new Map([dust, wind, frost].map((a) => [a.id, a]));

const languages: Record<string, string> = { u1: 'es', u2: 'fr' };
const row = (id: string, user: string, alertId: string, lead: string | null, accepted: string[] = []): ClaimedHeldDelivery => ({
  id,
  user_id: user,
  alert_id: alertId,
  attempts: 1,
  kind: 'alert',
  lead,
  push_accepted: accepted,
  ...recipientOf(user),
});
const recipientOf = (user: string) => ({
  language: languages[user] ?? null,
  push_enabled: true,
  sms_enabled: false,
  sms_stopped: false,
  voice_enabled: false,
  email_enabled: false,
  phone_number: null,
  email: `${user}@example.test`,
});

describe('digests of held deliveries', () => {
  it('orders a digest most severe first, then newest first', () => {
    expect([frost, dust, wind].sort(byUrgency).map((a) => a.id)).toEqual(['a1', 'a3', 'a2']);
  });

  it('makes one message per user, led by the batch row, carrying every claimed row', () => {
    const messages = toMessages(
      [row('d1', 'u1', 'a2', null, ['s1']), row('d2', 'u1', 'a1', 'd1', ['s1']), row('d3', 'u1', 'a3', 'd1', ['s1', 's2']), row('d4', 'u3', 'a2', null)],
      alerts,
    );
    // The user's settings as claimed, and every device any of the message's rows says took it.
    expect(messages).toEqual([
      {
        id: 'd1',
        userId: 'u1',
        alerts: [dust, frost, wind],
        deliveryIds: ['d1', 'd2', 'd3'],
        recipient: expect.objectContaining(recipientOf('u1')),
        pushAccepted: ['s1', 's2'],
      },
      { id: 'd4', userId: 'u3', alerts: [wind], deliveryIds: ['d4'], recipient: expect.objectContaining(recipientOf('u3')), pushAccepted: [] },
    ]);
  });

  it('keeps the recorded lead as the message id when the batch row itself did not go (so a retry repeats the same message)', () => {
    const messages = toMessages([row('d2', 'u1', 'a1', 'd1'), row('d3', 'u1', 'a3', 'd1')], alerts);
    expect(messages).toEqual([
      { id: 'd1', userId: 'u1', alerts: [dust, frost], deliveryIds: ['d2', 'd3'], recipient: expect.objectContaining(recipientOf('u1')), pushAccepted: [] },
    ]);
  });

  it("lists each alert in the user's language, in English where it has none", () => {
    const spanishDust = { ...dust, translations: { es: { title: 'Tormenta de polvo', message: 'Deténgase en el arcén.' } } };
    const both = new Map([spanishDust, wind].map((a) => [a.id, a]));
    const [es, fr, none] = toMessages(
      [row('d1', 'u1', 'a1', null), row('d2', 'u1', 'a2', 'd1'), row('d3', 'u2', 'a1', null), row('d4', 'u3', 'a1', null)],
      both,
    );
    expect(es.alerts.map((a) => [a.title, a.message, a.language])).toEqual([
      ['Tormenta de polvo', 'Deténgase en el arcén.', 'es'],
      ['Wind advisory', 'Wind advisory.', 'en'],
    ]);
    expect(fr.alerts.map((a) => [a.title, a.language])).toEqual([['Dust storm', 'en']]);
    expect(none.alerts.map((a) => [a.title, a.language])).toEqual([['Dust storm', 'en']]);
    expect(digestSmsText(es.alerts, 'https://x/alerts')).toContain('[Alta] Tormenta de polvo (I-17): Deténgase en el arcén.');
    // Beacon's own words in the reader's language, even around an alert it has only in English
    expect(digestSmsText(es.alerts, 'https://x/alerts')).toContain('[Media] Wind advisory');
    expect(digestTitle(es.alerts)).toBe('2 alertas en su zona');
    expect(digestPushBody(es.alerts)).toBe('Alta: Tormenta de polvo\nMedia: Wind advisory');
    expect(emailAlertHtml(es.alerts[0])).toContain('<strong>Gravedad:</strong> Alta<br><strong>Categoría:</strong>');
  });

  it('drops rows whose alert is not known and users left with nothing', () => {
    expect(toMessages([row('d9', 'u9', 'gone', null)], alerts)).toEqual([]);
  });

  it('words the digest for push, SMS and email', () => {
    expect(digestTitle([dust, wind])).toBe('2 alerts in your area');
    expect(digestPushBody([dust, wind])).toBe('High: Dust storm\nMedium: Wind advisory');
    const many = Array.from({ length: 7 }, (_, i) => alert(`m${i}`, 'low', `Alert ${i}`, '2026-11-24T10:00:00Z'));
    expect(digestPushBody(many).split('\n')).toEqual(['Low: Alert 0', 'Low: Alert 1', 'Low: Alert 2', 'Low: Alert 3', 'Low: Alert 4', 'and 2 more']);
    expect(digestSmsText([dust, wind], 'https://beacon.example/dashboard/alerts')).toBe(
      '[High] Dust storm (I-17): Dust storm.\n\n[Medium] Wind advisory: Wind advisory.',
    );
  });

  it('keeps a long SMS digest within its limit: one line per alert, "and N more", and where to read them', () => {
    const long = Array.from({ length: 30 }, (_, i) =>
      alert(`l${i}`, 'medium', `Road closure number ${i} on the long highway`, '2026-11-24T10:00:00Z', { message: 'm'.repeat(400) }),
    );
    const text = digestSmsText(long, 'https://beacon.example/dashboard/alerts');
    expect(text.length).toBeLessThanOrEqual(SMS_DIGEST_MAX_CHARS);
    const lines = text.split('\n');
    expect(lines[0]).toBe('[Medium] Road closure number 0 on the long highway');
    expect(lines.at(-1)).toBe('Details: https://beacon.example/dashboard/alerts');
    const shown = lines.filter((l) => l.startsWith('[Medium]')).length;
    expect(shown).toBeGreaterThan(5);
    expect(lines).toContain(`and ${30 - shown} more`);
    expect(text).not.toContain('mmmm');
  });

  it('keeps every push payload encryptable (under 4 KB), however long or many the alerts', () => {
    const wide = () =>
      alert(randomUUID(), 'high', '\u{1F6A8}'.repeat(100), '2026-11-24T10:00:00Z', {
        id: randomUUID(),
        message: '\u{1F30A}'.repeat(500),
        location_name: 'x'.repeat(200),
      });
    const receipt = { url: `https://${'h'.repeat(60)}.example/api/alerts/deliveries/${randomUUID()}/receipt`, delivered: 'd'.repeat(32), ack: 'a'.repeat(32) };
    const keys = { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' };
    for (const alerts of [[wide()], Array.from({ length: 60 }, () => wide())]) {
      const payload = pushPayload({ id: randomUUID(), userId: 'u', alerts, deliveryIds: [], recipient: recipientOf('u'), pushAccepted: [] }, receipt);
      expect(() => encryptPayload(Buffer.from(JSON.stringify(payload)), keys)).not.toThrow();
    }
  });

  it('escapes alert text in email HTML', () => {
    const html = emailAlertHtml(alert('x', 'low', '<script>alert(1)</script>', '2026-11-24T10:00:00Z', { location_name: 'A & B "corner"' }));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('A &amp; B &quot;corner&quot;');
  });

  it('records a message outcome on every delivery the message carried', () => {
    const messages: ChannelMessage[] = [
      { id: 'd1', userId: 'u1', alerts: [dust, wind], deliveryIds: ['d1', 'd2'], recipient: recipientOf('u1'), pushAccepted: [] },
      { id: 'd4', userId: 'u2', alerts: [wind], deliveryIds: ['d4'], recipient: recipientOf('u2'), pushAccepted: [] },
    ];
    expect(
      carried(
        [
          { id: 'd1', ok: true, messageId: 'm' },
          { id: 'd4', ok: false, failure: 'transient', error: 'x' },
        ],
        messages,
      ),
    ).toEqual([
      { id: 'd1', ok: true, messageId: 'm' },
      { id: 'd2', ok: true, messageId: 'm' },
      { id: 'd4', ok: false, failure: 'transient', error: 'x' },
    ]);
    const single = [{ id: 'd4', ok: true as const }];
    expect(carried(single, [messages[1]])).toBe(single);
  });
});

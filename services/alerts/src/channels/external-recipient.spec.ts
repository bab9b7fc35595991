import { MESSAGE_WORDS, REPLY_WORDS, SMS_MAX_SEGMENTS, smsSegments, SUPPORTED_LANGUAGES } from '@beacon/contracts';
import type { RecipientSettings } from '../deliveries/deliveries.repository';
import { alertTextFor } from './alert-text';
import { EXTERNAL_WORDS, externalEmailContent, withSmsStop } from './external-recipient';
import type { ChannelMessage, SendableAlert } from './send-targets.repository';

const flood: SendableAlert = {
  id: '6f1c8a52-0b7e-4c43-9d55-0f8e7d6c5b4a',
  title: 'Flash flood warning',
  message: 'Move to higher ground now.',
  translations: { es: { title: 'Aviso de inundación repentina', message: 'Suba a un terreno más alto ahora.' } },
  type: 'weather',
  severity: 'critical',
  category: 'weather',
  location_name: 'Salt River',
  status: 'active',
  sent_at: new Date('2026-03-04T10:00:00Z'),
  created_at: new Date('2026-03-04T10:00:00Z'),
  expired: false,
};
const heat: SendableAlert = {
  ...flood,
  id: '0b7e6f1c-8a52-4c43-9d55-0f8e7d6c5b4a',
  title: 'Heat advisory',
  message: 'Drink water.',
  severity: 'medium',
  translations: {},
};

const external: RecipientSettings = {
  language: 'es',
  push_enabled: false,
  sms_enabled: true,
  sms_stopped: false,
  email_enabled: true,
  voice_enabled: true,
  phone_number: '+16025550142',
  email: 'amal@example.org',
  external: true,
};

const message = (alerts: SendableAlert[]): ChannelMessage => ({
  id: 'd1',
  userId: 'c1',
  alerts,
  deliveryIds: ['d1'],
  recipient: external,
  pushAccepted: [],
});

describe('messages to external contacts', () => {
  it("says how to stop SMS in the words Beacon's SMS answers already use, in every language", () => {
    for (const language of SUPPORTED_LANGUAGES) {
      expect([language, REPLY_WORDS[language].noAlert.endsWith(EXTERNAL_WORDS[language].smsStop)]).toEqual([language, true]);
      expect(EXTERNAL_WORDS[language].emailWhy.length).toBeGreaterThan(40);
    }
  });

  it('ends an SMS with the STOP line in the language of its text, unless that would make it too long to send', () => {
    const es = alertTextFor(flood, 'es');
    expect(withSmsStop({ title: es.title, message: es.message }, es.language)).toEqual({
      title: 'Aviso de inundación repentina',
      message: 'Suba a un terreno más alto ahora.\n\nResponda STOP para dejar de recibir alertas por SMS.',
    });
    // an alert without Spanish goes in English, and so does its STOP line
    const en = alertTextFor(heat, 'es');
    expect(withSmsStop({ title: en.title, message: en.message }, en.language).message).toBe('Drink water.\n\nReply STOP to stop SMS alerts.');

    // a message at the limit goes as it is
    const full = { title: 'T', message: 'x'.repeat(153 * SMS_MAX_SEGMENTS - 'T\n\n'.length) };
    expect(smsSegments(`${full.title}\n\n${full.message}`).segments).toBe(SMS_MAX_SEGMENTS);
    expect(withSmsStop(full, 'en')).toEqual(full);
  });

  it('e-mails the alert with no link that needs an account, and why it came, in the language of its text', () => {
    const content = externalEmailContent(message([alertTextFor(flood, 'es')]));
    expect(content.subject).toBe('[Crítica] Aviso de inundación repentina');
    for (const part of [content.text, content.html]) {
      expect(part).toContain('Suba a un terreno más alto ahora.');
      expect(part).toContain(MESSAGE_WORDS.es.severity);
      expect(part).not.toMatch(/https?:|href=/);
      expect(part).not.toContain(MESSAGE_WORDS.es.viewAlert);
    }
    expect(content.text).toContain(EXTERNAL_WORDS.es.emailWhy);
    expect(content.html).toContain('Recibe estas alertas porque figura en una lista de contactos');
  });

  it('e-mails a digest without links, titled without "in your area" (they have no home on file)', () => {
    const content = externalEmailContent(message([alertTextFor(flood, 'es'), alertTextFor(heat, 'es')]));
    expect(content.subject).toBe('[Crítica] 2 alertas');
    expect(content.text).toContain('Aviso de inundación repentina');
    expect(content.text).toContain('Heat advisory');
    for (const part of [content.text, content.html]) {
      expect(part).not.toMatch(/https?:|href=/);
      expect(part).not.toContain(MESSAGE_WORDS.es.allAlerts);
      expect(part).toContain('Para dejar de recibir estos correos');
    }
  });
});

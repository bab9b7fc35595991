import { alertTextFor, textKey } from './alert-text';
import { asReminder } from './channel-batch.runner';
import type { SendableAlert } from './send-targets.repository';

const alert: SendableAlert = {
  id: 'a1',
  title: 'Wrong-way driver',
  message: 'A driver is going the wrong way on I-10.',
  translations: { es: { title: 'Conductor en sentido contrario', message: 'Un conductor circula en sentido contrario en la I-10.' } },
  type: 'Traffic',
  severity: 'critical',
  category: 'traffic',
  location_name: 'I-10',
  status: 'active',
  sent_at: new Date('2026-11-25T10:00:00Z'),
  created_at: new Date('2026-11-25T10:00:00Z'),
  expired: false,
};

describe('alertTextFor: the text each recipient gets', () => {
  it('is the translation in their language', () => {
    expect(alertTextFor(alert, 'es')).toMatchObject({
      title: 'Conductor en sentido contrario',
      message: 'Un conductor circula en sentido contrario en la I-10.',
      language: 'es',
    });
  });

  it('falls back to English for a language the alert has no text in, an unknown one, or none chosen', () => {
    for (const language of ['fr', 'xx', null, undefined]) {
      expect(alertTextFor(alert, language)).toMatchObject({ title: 'Wrong-way driver', message: 'A driver is going the wrong way on I-10.', language: 'en' });
    }
  });

  it('leaves the rest of the alert as it is, and a prefix goes on top of it', () => {
    const es = alertTextFor(alert, 'es');
    expect({ ...es, title: alert.title, message: alert.message, language: undefined }).toEqual({ ...alert, language: undefined });
    expect(asReminder(es).title).toBe('Reminder: Conductor en sentido contrario');
  });

  it('keys a text by its alerts and their languages; English alone keeps the bare ids (earlier idempotency keys)', () => {
    expect(textKey([alertTextFor(alert, 'en')])).toBe('a1');
    expect(textKey([alert])).toBe('a1');
    expect(textKey([alertTextFor(alert, 'es'), { ...alert, id: 'a2' }])).toBe('a1:es,a2');
  });
});

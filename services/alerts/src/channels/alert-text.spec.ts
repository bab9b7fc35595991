import { alertTextFor, textKey } from './alert-text';
import { asDelivered } from './delivery-text';
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

  it("leaves the rest of the alert as it is, and what a delivery carries goes on top of it, in the text's language", () => {
    const es = alertTextFor(alert, 'es');
    expect({ ...es, title: alert.title, message: alert.message, language: undefined }).toEqual({ ...alert, language: undefined });
    expect(asDelivered(es, 'reminder').title).toBe('Recordatorio: Conductor en sentido contrario');
    expect(asDelivered(es, 'update').title).toBe('Actualización: Conductor en sentido contrario');
    expect(asDelivered(es, 'left_area')).toMatchObject({
      title: 'Actualización: Conductor en sentido contrario',
      message: expect.stringContaining('ya no incluye su ubicación'),
    });
    expect(asDelivered(es, 'all_clear')).toMatchObject({ title: 'Fin de la alerta: Conductor en sentido contrario', severity: 'high' });
    // The all-clear in the reader's language alone (issue #38): their own words, else Beacon's, never the English.
    expect(asDelivered({ ...es, all_clear_message: 'Roads open.' }, 'all_clear').message).toBe('El peligro ha pasado. Esta alerta ha terminado.');
    const translated = { ...es, all_clear_message: 'Roads open.', all_clear_translations: { es: { message: 'Carreteras abiertas.' } } };
    expect(asDelivered(translated, 'all_clear').message).toBe('Carreteras abiertas.');
    expect(asDelivered({ ...translated, ...alertTextFor(alert, null) }, 'all_clear')).toMatchObject({
      title: 'All clear: Wrong-way driver',
      message: 'Roads open.',
    });
    expect(asDelivered(alertTextFor(alert, null), 'all_clear').message).toBe('The danger has passed. This alert has ended.');
    const en = alertTextFor(alert, 'fr');
    expect(asDelivered(en, 'update').title).toBe('Update: Wrong-way driver');
    expect(asDelivered(en, 'alert')).toBe(en);
  });

  it('keys a text by its alerts and their languages; English alone keeps the bare ids (earlier idempotency keys)', () => {
    expect(textKey([alertTextFor(alert, 'en')])).toBe('a1');
    expect(textKey([alert])).toBe('a1');
    expect(textKey([alertTextFor(alert, 'es'), { ...alert, id: 'a2' }])).toBe('a1:es,a2');
    // The same alert as an update and as new are two texts.
    expect(textKey([asDelivered(alert, 'update')])).toBe('a1:update');
    expect(textKey([asDelivered(alertTextFor(alert, 'es'), 'all_clear')])).toBe('a1:all_clear:es');
  });
});

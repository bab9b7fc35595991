import { deliveredText, emailSubject, markedAsTest, spokenAlert, spokenSentence } from './delivered-text';
import { textInLanguage } from './languages';
import { TEST_MARKER } from './test-alerts';

const alert = {
  title: 'Flood warning',
  message: 'Move to higher ground now.',
  translations: {
    es: { title: 'Aviso de inundación', message: 'Suba a un terreno más alto ahora.' },
    ko: { title: '홍수 경보', message: '지금 높은 곳으로 이동하십시오.' },
    vi: { title: 'Cảnh báo lũ', message: 'Hãy di chuyển lên vùng đất cao ngay.' },
  },
};

/** The text a reader of `language` gets, as the alerts service and the console's previews compose it. */
const forReader = (language: string | null, severity: 'high' | 'critical' = 'high') => ({ ...textInLanguage(alert, language), severity });

describe('deliveredText: what a delivery carries, in the words of its text’s language (issue #41)', () => {
  it('is the text itself for the alert', () => {
    const es = forReader('es');
    expect(deliveredText(es, 'alert')).toBe(es);
  });

  it("prefixes a reminder and an update in the text's language; a reader without a translation gets the English ones", () => {
    expect(deliveredText(forReader('ko'), 'update').title).toBe('업데이트: 홍수 경보');
    expect(deliveredText(forReader('es'), 'reminder').title).toBe('Recordatorio: Aviso de inundación');
    expect(deliveredText(forReader('fr'), 'update')).toMatchObject({ title: 'Update: Flood warning', message: 'Move to higher ground now.', language: 'en' });
    expect(deliveredText(forReader('es'), 'left_area')).toMatchObject({
      title: 'Actualización: Aviso de inundación',
      message: 'El área de esta alerta ha cambiado y ya no incluye su ubicación.',
    });
  });

  it("gives the all-clear the admin's words in the text's language, else Beacon's there, and never as critical", () => {
    const words = { message: 'Roads are open again.', translations: { es: { message: 'Las carreteras están abiertas.' } } };
    expect(deliveredText(forReader('vi', 'critical'), 'all_clear', words)).toEqual({
      title: 'Hết cảnh báo: Cảnh báo lũ',
      message: 'Nguy hiểm đã qua. Cảnh báo này đã kết thúc.',
      language: 'vi',
      severity: 'high',
    });
    expect(deliveredText(forReader('es'), 'all_clear', words).message).toBe('Las carreteras están abiertas.');
    expect(deliveredText(forReader('fr'), 'all_clear', words)).toMatchObject({ title: 'All clear: Flood warning', message: 'Roads are open again.' });
    expect(deliveredText(forReader(null), 'all_clear').message).toBe('The danger has passed. This alert has ended.');
    expect(deliveredText(forReader('ko'), 'all_clear', null).message).toBe('위험이 지났습니다. 이 경보는 종료되었습니다.');
  });
});

describe('the channels’ framing', () => {
  it("names the severity in the e-mail subject in the text's language; a test alert's subject is its marked title", () => {
    expect(emailSubject(forReader('es'))).toBe('[Alta] Aviso de inundación');
    expect(emailSubject(forReader('fr'))).toBe('[High] Flood warning');
    expect(emailSubject(deliveredText(forReader('vi', 'critical'), 'all_clear'))).toBe('[Cao] Hết cảnh báo: Cảnh báo lũ');
    const test = markedAsTest({ ...forReader('en'), severity: 'high' as const });
    expect(emailSubject(test, true)).toBe(`${TEST_MARKER}Flood warning`);
  });

  it('marks a test once, title and message', () => {
    const once = markedAsTest(forReader('en'));
    expect([once.title, once.message]).toEqual([`${TEST_MARKER}Flood warning`, `${TEST_MARKER}Move to higher ground now.`]);
    expect(markedAsTest(once)).toEqual(once);
  });

  it('says an alert as a call does: sentences ended, the place in the text’s language', () => {
    expect(spokenSentence(' Flood warning ')).toBe('Flood warning.');
    expect(spokenSentence('洪水警报。')).toBe('洪水警报。');
    expect(spokenAlert(forReader('es'), 'Riverside')).toBe('Aviso de inundación. Suba a un terreno más alto ahora. Lugar: Riverside.');
    expect(spokenAlert(forReader('fr'))).toBe('Flood warning. Move to higher ground now.');
  });
});

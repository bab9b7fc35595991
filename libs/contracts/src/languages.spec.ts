import { alertLanguages, languageFromLocale, smsSegments, smsText, SUPPORTED_LANGUAGES, textInLanguage, TRANSLATION_LANGUAGES } from './languages';

describe('SMS segments', () => {
  it('plain ASCII is GSM-7: 160 in one segment, then 153 per segment', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', characters: 160, units: 160, segments: 1, perSegment: 160 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ encoding: 'GSM-7', segments: 2, perSegment: 153 });
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('an extension character (€ [ ] { } ~ ^ | \\) counts two septets and keeps GSM-7', () => {
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', characters: 80, units: 160, segments: 1 });
    expect(smsSegments('€'.repeat(81))).toMatchObject({ encoding: 'GSM-7', units: 162, segments: 2 });
    expect(smsSegments('a'.repeat(159) + '{')).toMatchObject({ units: 161, segments: 2 });
    expect(smsSegments('[]~^|\\').units).toBe(12);
  });

  it('GSM-7 Spanish letters (ñ ¿ ¡ é ü) stay GSM-7; á í ó ú force UCS-2', () => {
    expect(smsSegments('¿Año? ¡Sí! é ü ñ'.replace('í', 'i'))).toMatchObject({ encoding: 'GSM-7' });
    expect(smsSegments('Evacúe la zona')).toMatchObject({ encoding: 'UCS-2', segments: 1 });
  });

  it('one emoji forces UCS-2: 70 units in one segment, then 67; an emoji is a surrogate pair (two units)', () => {
    expect(smsSegments('😀' + 'a'.repeat(68))).toEqual({ encoding: 'UCS-2', characters: 69, units: 70, segments: 1, perSegment: 70 });
    expect(smsSegments('😀' + 'a'.repeat(69))).toMatchObject({ encoding: 'UCS-2', units: 71, segments: 2, perSegment: 67 });
    expect(smsSegments('a'.repeat(134)).segments).toBe(1);
    expect(smsSegments('😀' + 'a'.repeat(132)).segments).toBe(2);
    expect(smsSegments('😀' + 'a'.repeat(133)).segments).toBe(3);
  });

  it('never splits a surrogate pair across segments', () => {
    // 66 units, then an emoji that would straddle units 67-68: it moves whole to the second segment (67 units: full).
    expect(smsSegments('a'.repeat(66) + '😀' + 'a'.repeat(65)).segments).toBe(2);
    // 134 units would fit two segments of 67 if the pair could be split; it cannot, so three.
    expect(smsSegments('a'.repeat(66) + '😀' + 'a'.repeat(66))).toMatchObject({ units: 134, segments: 3 });
  });

  it('counts the empty text as no segment', () => {
    expect(smsSegments('').segments).toBe(0);
  });

  it('an SMS is the title, a line break and the message', () => {
    expect(smsText({ title: 'Flood', message: 'Move uphill' })).toBe('Flood\nMove uphill');
  });
});

describe('languages', () => {
  const alert = { title: 'Flood', message: 'Move uphill now', translations: { es: { title: 'Inundación', message: 'Suba a terreno alto' } } };

  it('picks the translation in the language, else English', () => {
    expect(textInLanguage(alert, 'es')).toEqual({ title: 'Inundación', message: 'Suba a terreno alto', language: 'es' });
    expect(textInLanguage(alert, 'fr')).toEqual({ title: 'Flood', message: 'Move uphill now', language: 'en' });
    expect(textInLanguage(alert, null)).toEqual({ title: 'Flood', message: 'Move uphill now', language: 'en' });
    expect(textInLanguage({ ...alert, translations: null }, 'es').language).toBe('en');
  });

  it('lists English first, then the translated languages', () => {
    expect(alertLanguages(alert)).toEqual(['en', 'es']);
    expect(alertLanguages({})).toEqual(['en']);
  });

  it('maps a browser locale to a supported language by its primary subtag', () => {
    expect(languageFromLocale('es-MX')).toBe('es');
    expect(languageFromLocale('zh_Hant_TW')).toBe('zh');
    expect(languageFromLocale('de-DE')).toBe('en');
    expect(languageFromLocale(undefined)).toBe('en');
  });

  it('translations may be in every supported language but English', () => {
    expect(TRANSLATION_LANGUAGES).toEqual(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'));
  });
});

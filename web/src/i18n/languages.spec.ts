import { createIntl } from 'react-intl';
import { formatDistance } from './format';
import { intlLocaleFor, usesMiles } from './languages';

describe('intlLocaleFor', () => {
  it("takes the browser's region when the browser speaks the language", () => {
    expect(intlLocaleFor('es', ['es-MX', 'en-US'])).toBe('es-MX');
    expect(intlLocaleFor('en', ['fr-FR', 'en-GB'])).toBe('en-GB');
  });
  it('is the language alone when the browser does not speak it', () => {
    expect(intlLocaleFor('ko', ['en-US'])).toBe('ko');
    expect(intlLocaleFor('vi', [])).toBe('vi');
  });
  it('keeps Chinese Simplified whatever region the browser has', () => {
    expect(intlLocaleFor('zh', ['zh-TW'])).toBe('zh-Hans');
    expect(intlLocaleFor('zh', ['zh-CN'])).toBe('zh-Hans-CN');
    expect(intlLocaleFor('zh', ['en'])).toBe('zh-Hans');
  });
  it('skips a malformed browser tag', () => {
    expect(intlLocaleFor('fr', ['not a tag!', 'fr-CA'])).toBe('fr-CA');
  });
});

describe('distances', () => {
  it('are miles where roads are signed in miles, kilometres elsewhere', () => {
    expect(usesMiles('en')).toBe(true);
    expect(usesMiles('en-GB')).toBe(true);
    expect(usesMiles('en-AU')).toBe(false);
    expect(usesMiles('es-MX')).toBe(false);
    expect(usesMiles('fr')).toBe(false);
  });
  it('are written in the reader’s unit and number format', () => {
    expect(formatDistance(16.09344, createIntl({ locale: 'en-US' }))).toBe('10 mi');
    expect(formatDistance(4, createIntl({ locale: 'en-US' }))).toBe('2.5 mi');
    expect(formatDistance(2.5, createIntl({ locale: 'fr-FR' }))).toMatch(/^2,5\skm$/); // a no-break space of ICU's choosing
    expect(formatDistance(0.35, createIntl({ locale: 'es' }))).toBe('350 m');
  });
});

import { checkContactRow, normalisePhone, parseLanguage } from './contact-row';

describe('a contact row', () => {
  it('is kept normalised: phone in E.164, e-mail and name trimmed, English when no language is given', () => {
    expect(checkContactRow({ name: '  Ann Lee ', phone: ' +1 (602) 555-0101 ', email: ' Ann.Lee@Example.org ' })).toEqual({
      contact: { name: 'Ann Lee', phone: '+16025550101', email: 'Ann.Lee@Example.org', language: 'en' },
    });
  });

  it.each([
    ['a blank name', { name: '  ', phone: '+16025550101' }, 'missing_name'],
    ['no name at all', { name: undefined as unknown as string, email: 'a@example.org' }, 'missing_name'],
    ['a name over 100 characters', { name: 'x'.repeat(101), phone: '+16025550101' }, 'name_too_long'],
    ['neither phone nor e-mail', { name: 'Ann', phone: ' ', email: '' }, 'missing_contact'],
    ['a number without its country code', { name: 'Ann', phone: '602-555-0101' }, 'invalid_phone'],
    ['a number of 16 digits', { name: 'Ann', phone: '+1234567890123456' }, 'invalid_phone'],
    ['a country code starting with 0', { name: 'Ann', phone: '+0441234567' }, 'invalid_phone'],
    ['letters in the number', { name: 'Ann', phone: '+1 602 CALL NOW' }, 'invalid_phone'],
    ['an extension', { name: 'Ann', phone: '+16025550101 x12' }, 'invalid_phone'],
    ['an e-mail without a domain', { name: 'Ann', email: 'ann@' }, 'invalid_email'],
    ['an e-mail with a space', { name: 'Ann', email: 'ann lee@example.org' }, 'invalid_email'],
    ['a good phone and a bad e-mail', { name: 'Ann', phone: '+16025550101', email: 'not-an-address' }, 'invalid_email'],
    ['an unsupported language', { name: 'Ann', phone: '+16025550101', language: 'Klingon' }, 'invalid_language'],
    ['a language code Beacon has no text in', { name: 'Ann', phone: '+16025550101', language: 'de' }, 'invalid_language'],
  ])('with %s is refused', (_, row, code) => {
    const checked = checkContactRow(row);
    expect(checked).toEqual({ problem: { code, message: expect.any(String) } });
  });

  it('says what is wrong in words an administrator can act on', () => {
    expect(checkContactRow({ name: 'Ann', phone: '602-555-0101' })).toEqual({
      problem: { code: 'invalid_phone', message: '"602-555-0101" is not a phone number with its country code: write it in E.164 form, e.g. +16025551234' },
    });
    expect(checkContactRow({ name: 'Ann', phone: '+16025550101', language: 'Klingon' })).toMatchObject({
      problem: { message: expect.stringContaining('Spanish (Español) (es)') },
    });
  });

  it('reports the first problem of a row with several', () => {
    expect(checkContactRow({ name: '', phone: 'bad', email: 'bad' })).toMatchObject({ problem: { code: 'missing_name' } });
    expect(checkContactRow({ name: 'Ann', phone: 'bad', email: 'bad' })).toMatchObject({ problem: { code: 'invalid_phone' } });
  });
});

describe('a phone number', () => {
  it.each([
    ['+16025550101', '+16025550101'],
    ['+1 602 555 0101', '+16025550101'],
    ['+1 (602) 555-0101', '+16025550101'],
    ['+1.602.555.0101', '+16025550101'],
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+1\u00a0602\u00a0555\u20110101', '+16025550101'],
    ['+1 602 555–0101', '+16025550101'],
    ['+123456789012345', '+123456789012345'],
  ])('%j is %s', (raw, e164) => expect(normalisePhone(raw)).toBe(e164));

  it.each(['6025550101', '1-602-555-0101', '+1234567890123456', '+12345', '++16025550101', '+1 602 555 0101 ext 3', ''])('%j is not one', (raw) =>
    expect(normalisePhone(raw)).toBeNull(),
  );
});

describe('a language', () => {
  it.each([
    ['', 'en'],
    ['  ', 'en'],
    [undefined, 'en'],
    ['es', 'es'],
    ['ES', 'es'],
    ['es-MX', 'es'],
    ['zh_Hant_TW', 'zh'],
    ['Spanish', 'es'],
    ['spanish', 'es'],
    ['Español', 'es'],
    ['espanol', 'es'],
    ['Spanish (Español)', 'es'],
    ['French', 'fr'],
    ['Français', 'fr'],
    ['中文', 'zh'],
    ['Tiếng Việt', 'vi'],
    ['Tieng Viet', 'vi'],
    ['한국어', 'ko'],
    ['Korean', 'ko'],
    ['English', 'en'],
  ])('%j is %s', (raw, code) => expect(parseLanguage(raw)).toBe(code));

  it.each(['de', 'German', 'Klingon', 'e', 'constructor', 'toString'])('%j is none Beacon supports', (raw) => expect(parseLanguage(raw)).toBeNull());
});

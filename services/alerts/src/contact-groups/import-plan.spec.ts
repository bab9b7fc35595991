import { readContactCsv } from './contact-csv';
import { planImport, StoredContact } from './import-plan';

const plan = (csv: string, stored: StoredContact[] = []) => planImport(readContactCsv(csv), stored);

const ann: StoredContact = { id: 'c-ann', name: 'Ann Lee', phone: '+16025550101', email: 'ann@example.org', language: 'es' };
const bob: StoredContact = { id: 'c-bob', name: 'Bob Roe', phone: '+16025550102', email: null, language: 'en' };
const cy: StoredContact = { id: 'c-cy', name: 'Cy Poe', phone: null, email: 'cy@example.org', language: 'fr' };

describe('planning an import', () => {
  it('creates the good rows of a file for an empty group and rejects each bad row with its line, cells and reason', () => {
    const result = plan(
      [
        'name,phone,email,language',
        'Ann Lee,+1 602 555 0101,ann@example.org,Spanish',
        ',+16025550109,,',
        'Bob Roe,602-555-0102,,',
        'Cy Poe,,cy@example,',
        'Di Tan,,,',
        'Ed Ng,+16025550105,,Klingon',
        `${'x'.repeat(101)},+16025550106,,`,
        'Fay Wu,,fay@example.org,fr',
        'Ann again,+16025550101,,',
      ].join('\n'),
    );
    expect(result.create).toEqual([
      { name: 'Ann Lee', phone: '+16025550101', email: 'ann@example.org', language: 'es' },
      { name: 'Fay Wu', phone: null, email: 'fay@example.org', language: 'fr' },
    ]);
    expect(result.update).toEqual([]);
    expect(result.unchanged).toBe(0);
    expect(result.rejected.map((r) => [r.line, r.code])).toEqual([
      [3, 'missing_name'],
      [4, 'invalid_phone'],
      [5, 'invalid_email'],
      [6, 'missing_contact'],
      [7, 'invalid_language'],
      [8, 'name_too_long'],
      [10, 'duplicate_in_file'],
    ]);
    expect(result.rejected[1]).toEqual({
      line: 4,
      values: { name: 'Bob Roe', phone: '602-555-0102', email: '', language: '' },
      code: 'invalid_phone',
      message: expect.stringContaining('"602-555-0102" is not a phone number with its country code'),
    });
    expect(result.rejected[6].message).toBe('Same phone number as line 2: merged into it');
  });

  it('merges duplicates in the file into the first, which takes the phone or e-mail it lacked', () => {
    const result = plan(
      [
        'name,phone,email',
        'Ann Lee,+16025550101,',
        'Ann L.,+1 (602) 555-0101,ANN@example.org',
        'Bob Roe,,bob@example.org',
        'Robert Roe,+16025550102,Bob@Example.org',
        'Someone,+16025550102,',
      ].join('\n'),
    );
    expect(result.create).toEqual([
      { name: 'Ann Lee', phone: '+16025550101', email: 'ANN@example.org', language: 'en' },
      { name: 'Bob Roe', phone: '+16025550102', email: 'bob@example.org', language: 'en' },
    ]);
    expect(result.rejected.map((r) => [r.line, r.code, r.message])).toEqual([
      [3, 'duplicate_in_file', 'Same phone number as line 2: merged into it'],
      [5, 'duplicate_in_file', 'Same e-mail address as line 4: merged into it'],
      [6, 'duplicate_in_file', 'Same phone number as line 4: merged into it'],
    ]);
  });

  it('does not give the first row a phone or e-mail another row already has', () => {
    const result = plan(['name,phone,email', 'Ann,+16025550101,', 'Cy,,cy@example.org', 'Ann Cy,+16025550101,cy@example.org'].join('\n'));
    expect(result.create).toEqual([
      { name: 'Ann', phone: '+16025550101', email: null, language: 'en' },
      { name: 'Cy', phone: null, email: 'cy@example.org', language: 'en' },
    ]);
    expect(result.rejected.map((r) => [r.line, r.code])).toEqual([[4, 'duplicate_in_file']]);
  });

  it('leaves members as they are unchanged, and updates those whose name, language, phone or e-mail differ', () => {
    const result = plan(
      [
        'name,phone,email,language',
        // the same, the e-mail in another case and the phone written otherwise
        'Ann Lee,+1 602-555-0101,ANN@EXAMPLE.ORG,es',
        // renamed, and given an e-mail
        'Robert Roe,+16025550102,bob@example.org,en',
        // found by e-mail, language blank: keeps French
        'Cy Poe,,cy@example.org,',
        'Di Tan,+16025550104,,',
      ].join('\n'),
      [ann, bob, cy],
    );
    expect(result.unchanged).toBe(2);
    expect(result.update).toEqual([{ id: 'c-bob', name: 'Robert Roe', phone: '+16025550102', email: 'bob@example.org', language: 'en' }]);
    expect(result.create).toEqual([{ name: 'Di Tan', phone: '+16025550104', email: null, language: 'en' }]);
    expect(result.rejected).toEqual([]);
  });

  it('changes a language given, and keeps a phone or e-mail left blank', () => {
    const result = plan(['name,phone,email,language', 'Ann Lee,,ann@example.org,English'].join('\n'), [ann]);
    expect(result.update).toEqual([{ ...ann, language: 'en' }]);
  });

  it("rejects a row whose phone is one member's and e-mail another's", () => {
    const result = plan(['name,phone,email', 'Bob Cy,+16025550102,cy@example.org'].join('\n'), [bob, cy]);
    expect(result.create).toEqual([]);
    expect(result.update).toEqual([]);
    expect(result.rejected).toEqual([
      expect.objectContaining({ line: 2, code: 'conflicting_members', message: expect.stringContaining("Bob Roe's and the e-mail address Cy Poe's") }),
    ]);
  });

  it('rejects a later row that names a member an earlier row already did', () => {
    const result = plan(['name,phone,email', 'Ann Lee,+16025550101,', 'Ann Lee,,ann@example.org'].join('\n'), [ann]);
    expect(result.unchanged).toBe(1);
    expect(result.rejected).toEqual([
      expect.objectContaining({ line: 3, code: 'duplicate_in_file', message: 'Names the same member (Ann Lee) as line 2: only line 2 is imported' }),
    ]);
  });

  it('changes nothing when the file was imported already', () => {
    const csv = [
      'name,phone,email,language',
      'Ann Lee,+16025550101,ann@example.org,es',
      'Bob Roe,+16025550102,,',
      'Cy Poe,,cy@example.org,fr',
      'Bad,123,,',
    ].join('\n');
    const first = plan(csv);
    const stored = first.create.map((c, i) => ({ ...c, id: `c${i}` }));
    const second = plan(csv, stored);
    expect([second.create, second.update, second.unchanged, second.rejected.map((r) => r.code)]).toEqual([[], [], 3, ['invalid_phone']]);
  });
});

import { AppError } from '@beacon/common';
import { CONTACT_IMPORT_LIMITS } from '@beacon/contracts';
import { contactsCsv, readContactCsv } from './contact-csv';

/** The error a file is refused with: its status, code and message. */
function refusal(csv: string) {
  try {
    readContactCsv(csv);
  } catch (e) {
    if (e instanceof AppError) return { status: e.getStatus(), ...(e.getResponse() as object) };
    throw e;
  }
  throw new Error('the file was read');
}

describe('reading a contact CSV', () => {
  it('reads each row by its header, any case and order, ignoring other columns, numbering lines from the header', () => {
    const rows = readContactCsv('Email,NAME,Department,Phone,Language\r\nann@example.org,Ann Lee,Roads,+16025550101,es\r\n,Bob Roe,Schools,+16025550102,\r\n');
    expect(rows).toEqual([
      {
        line: 2,
        values: { email: 'ann@example.org', name: 'Ann Lee', phone: '+16025550101', language: 'es' },
        input: { name: 'Ann Lee', phone: '+16025550101', email: 'ann@example.org', language: 'es' },
      },
      {
        line: 3,
        values: { email: '', name: 'Bob Roe', phone: '+16025550102', language: '' },
        input: { name: 'Bob Roe', phone: '+16025550102', email: '', language: '' },
      },
    ]);
  });

  it('tolerates a byte-order mark before the header', () => {
    const rows = readContactCsv('\uFEFFname,phone\nAnn,+16025550101\n');
    expect(rows.map((r) => r.input)).toEqual([{ name: 'Ann', phone: '+16025550101', email: undefined, language: undefined }]);
  });

  it('reads semicolon- and tab-separated files as spreadsheets save them where the comma is the decimal mark', () => {
    expect(readContactCsv('name;phone;email\nAnn Lee;+1 602 555 0101;ann@example.org\n')[0].input).toMatchObject({ name: 'Ann Lee', phone: '+1 602 555 0101' });
    expect(readContactCsv('name\temail\nAnn, Lee\tann@example.org\n')[0].input).toMatchObject({ name: 'Ann, Lee', email: 'ann@example.org' });
  });

  it('reads quoted cells with separators, quotes and line breaks, numbering the next row after them', () => {
    const rows = readContactCsv('name,email\n"Lee, Ann ""AL""",ann@example.org\n"Bob\nRoe",bob@example.org\nCy,cy@example.org\n');
    expect(rows.map((r) => [r.line, r.input.name])).toEqual([
      [2, 'Lee, Ann "AL"'],
      [3, 'Bob\nRoe'],
      [5, 'Cy'],
    ]);
  });

  it('skips blank rows (and rows of empty cells) but keeps counting their lines', () => {
    const rows = readContactCsv('name,email\n\nAnn,ann@example.org\n,,\n  ,\nBob,bob@example.org');
    expect(rows.map((r) => [r.line, r.input.name])).toEqual([
      [3, 'Ann'],
      [6, 'Bob'],
    ]);
  });

  it('reads Mac (CR) line ends and short rows', () => {
    expect(readContactCsv('name,phone,email\rAnn,+16025550101\r').map((r) => r.values)).toEqual([{ name: 'Ann', phone: '+16025550101', email: '' }]);
  });

  it("reads back the export's formula escape, and only that", () => {
    const rows = readContactCsv(`name,phone\n"'=Ann","'+16025550101"\n"O'Brien",+16025550102\n"'Ann",+16025550103\n`);
    expect(rows.map((r) => [r.input.name, r.input.phone])).toEqual([
      ['=Ann', '+16025550101'],
      ["O'Brien", '+16025550102'],
      ["'Ann", '+16025550103'],
    ]);
  });

  it.each([
    ['an empty file', '', 'import_header_invalid'],
    ['a file of blank lines', '\n\n', 'import_header_invalid'],
    ['a file with only a BOM', '\uFEFF', 'import_header_invalid'],
    ['no name column', 'phone,email\n+16025550101,a@example.org\n', 'import_header_invalid'],
    ['neither a phone nor an email column', 'name,language\nAnn,es\n', 'import_header_invalid'],
    ['a column named twice', 'name,email,E-mail\nAnn,a@example.org,b@example.org\n', 'import_header_invalid'],
    ['data where the header should be', 'Ann Lee,+16025550101\n', 'import_header_invalid'],
    ['a quote never closed', 'name,email\n"Ann,a@example.org\n', 'import_csv_invalid'],
  ])('refuses %s (400)', (_, csv, code) => {
    expect(refusal(csv)).toMatchObject({ status: 400, code, message: expect.any(String) });
  });

  it('says which columns it found when the header is wrong', () => {
    expect(refusal('Full name,Mobile\nAnn,+16025550101\n')).toMatchObject({
      message: expect.stringContaining('The first line names "Full name", "Mobile": a name column and a phone or email column are required'),
    });
  });

  it(`takes ${CONTACT_IMPORT_LIMITS.maxRows} rows and refuses one more (blank rows not counted)`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `P${i},+1602555${String(i).padStart(4, '0')}`).join('\n');
    expect(readContactCsv(`name,phone\n${lines(CONTACT_IMPORT_LIMITS.maxRows)}\n\n\n`)).toHaveLength(CONTACT_IMPORT_LIMITS.maxRows);
    expect(refusal(`name,phone\n${lines(CONTACT_IMPORT_LIMITS.maxRows + 1)}\n`)).toMatchObject({ status: 400, code: 'import_too_many_rows' });
  });
});

describe('writing a contact CSV', () => {
  it('writes the columns in order, every cell quoted, formulas escaped, and reads back as written', () => {
    const contacts = [
      { name: '=HYPERLINK("x")', phone: '+16025550101', email: null, language: 'es' as const },
      { name: 'Lee, Ann', phone: null, email: '@ann@example.org', language: 'en' as const },
    ];
    const csv = contactsCsv(contacts);
    expect(csv).toBe('"name","phone","email","language"\r\n' + `"'=HYPERLINK(""x"")","'+16025550101",,"es"\r\n` + `"Lee, Ann",,"'@ann@example.org","en"\r\n`);
    expect(readContactCsv(csv).map((r) => r.values)).toEqual([
      { name: '=HYPERLINK("x")', phone: '+16025550101', email: '', language: 'es' },
      { name: 'Lee, Ann', phone: '', email: '@ann@example.org', language: 'en' },
    ]);
  });
});

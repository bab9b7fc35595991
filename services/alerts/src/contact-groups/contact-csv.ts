import { CsvError, parse } from 'csv-parse/sync';
import { badRequest } from '@beacon/common';
import { CONTACT_CSV_COLUMNS, CONTACT_IMPORT_LIMITS, type ContactRowInput } from '@beacon/contracts';
import { csvRows } from '../alerts/delivery-report.service';
import type { Contact } from './contact-row';

export type ContactCsvColumn = (typeof CONTACT_CSV_COLUMNS)[number];

/** One data row of an import file: where it is, what its cells say (by column), and the row those cells make. */
export interface ContactCsvRow {
  /** 1-based, the header being line 1; a row whose quoted cell spans lines is numbered by its first. */
  line: number;
  values: Partial<Record<ContactCsvColumn, string>>;
  input: ContactRowInput;
}

/** The separators a spreadsheet saves "CSV" with: commas, semicolons where the comma is the decimal mark, tabs. */
const DELIMITERS = [',', ';', '\t'] as const;

/**
 * The exported file's escape (spreadsheetText): a cell a spreadsheet would run as a formula, such as a phone number's
 * leading plus, is written after a single quote. Read back, the quote goes, so an export imports as it was.
 */
const FORMULA_ESCAPE = /^'(?=[=+\-@\t\r])/;

/** "E-mail", " Phone " and "LANGUAGE" name the email, phone and language columns. */
const columnOf = (header: string): ContactCsvColumn | undefined => {
  const key = header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');
  return CONTACT_CSV_COLUMNS.find((c) => c === key);
};

const EXPECTED = `The first line must name the columns, e.g. ${CONTACT_CSV_COLUMNS.join(',')} (in any order; other columns are ignored)`;

/**
 * The rows of a contact CSV (UTF-8, a byte-order mark tolerated), parsed by csv-parse: a header row naming the columns
 * (CONTACT_CSV_COLUMNS, any case and order; others ignored), comma-, semicolon- or tab-separated as the header is, then
 * at most CONTACT_IMPORT_LIMITS.maxRows rows. Blank rows are skipped; a row's cells are checked by checkContactRow,
 * not here. A file that cannot be read as such is refused whole (400) with what is wrong.
 */
export function readContactCsv(text: string): ContactCsvRow[] {
  const body = text.replace(/^\uFEFF/, '');
  const records = parseRecords(body, delimiterOf(body));
  const [header, ...data] = records;
  if (!header || isBlank(header.record)) throw badRequest(`The file is empty. ${EXPECTED}.`, 'import_header_invalid');
  const columns = headerColumns(header.record);

  const rows: ContactCsvRow[] = [];
  let previousEnd = header.info.lines;
  for (const { record, info } of data) {
    const line = previousEnd + 1;
    previousEnd = info.lines;
    if (isBlank(record)) continue;
    if (rows.length === CONTACT_IMPORT_LIMITS.maxRows) {
      throw badRequest(
        `The file has more than ${CONTACT_IMPORT_LIMITS.maxRows.toLocaleString('en-US')} rows: split it into several files`,
        'import_too_many_rows',
      );
    }
    const values: ContactCsvRow['values'] = {};
    columns.forEach((column, i) => {
      if (column) values[column] = (record[i] ?? '').trim().replace(FORMULA_ESCAPE, '');
    });
    rows.push({ line, values, input: { name: values.name ?? '', phone: values.phone, email: values.email, language: values.language } });
  }
  return rows;
}

/** The group's contacts as a file readContactCsv reads back as they are: every cell quoted and formula-safe, CRLF. */
export function contactsCsv(contacts: Contact[]): string {
  return csvRows([[...CONTACT_CSV_COLUMNS], ...contacts.map((c) => [c.name, c.phone, c.email, c.language])]);
}

type ParsedRecord = { record: string[]; info: { lines: number } };

function parseRecords(body: string, delimiter: string): ParsedRecord[] {
  try {
    return parse(body, { delimiter, info: true, relax_column_count: true, relax_quotes: true }) as unknown as ParsedRecord[];
  } catch (e) {
    if (e instanceof CsvError) throw badRequest(`The file is not valid CSV: ${e.message}`, 'import_csv_invalid');
    throw e;
  }
}

/** The separator the header row uses most (comma when it has none: a file of one column). */
function delimiterOf(body: string): string {
  const firstLine = body.slice(0, body.search(/\r|\n|$/));
  const count = (d: string) => firstLine.split(d).length;
  return DELIMITERS.reduce((best, d) => (count(d) > count(best) ? d : best), DELIMITERS[0] as string);
}

/** Which column each header cell names (undefined: ignored); a name column and a phone or e-mail column are needed. */
function headerColumns(header: string[]): (ContactCsvColumn | undefined)[] {
  const columns = header.map(columnOf);
  const twice = CONTACT_CSV_COLUMNS.find((c) => columns.filter((x) => x === c).length > 1);
  if (twice) throw badRequest(`The column "${twice}" is named twice in the first line. ${EXPECTED}.`, 'import_header_invalid');
  if (!columns.includes('name') || !(columns.includes('phone') || columns.includes('email'))) {
    const found = header.map((h) => `"${h.trim()}"`).join(', ');
    throw badRequest(`The first line names ${found}: a name column and a phone or email column are required. ${EXPECTED}.`, 'import_header_invalid');
  }
  return columns;
}

const isBlank = (record: string[]) => record.every((cell) => !cell.trim());

/** A spreadsheet reads a cell starting with one of these as a formula (CSV / formula injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A value as text a spreadsheet shows as it is: empty for none, and a cell it would evaluate as a formula prefixed
 * with a single quote (OWASP's CSV injection advice). Every CSV Beacon writes, in the browser or a service, passes
 * its cells through this.
 */
export function spreadsheetText(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

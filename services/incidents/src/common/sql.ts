/**
 * Rows of a raw query. TypeORM returns `[rows, rowCount]` for UPDATE and DELETE but plain rows for
 * SELECT and INSERT; this reads both.
 */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

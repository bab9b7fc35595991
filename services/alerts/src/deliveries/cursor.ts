import { DataSource } from 'typeorm';

/** Rows a cursor reads per round trip. */
export const CURSOR_FETCH = 5000;

/**
 * Runs `sql` through a cursor in one snapshot on its own connection, handing `onRows` each round trip's rows, so
 * memory holds one fetch whatever the result's size.
 */
export async function streamRows<T>(ds: DataSource, sql: string, params: unknown[], onRows: (rows: T[]) => Promise<void> | void): Promise<void> {
  const runner = ds.createQueryRunner('slave');
  await runner.connect();
  try {
    await runner.startTransaction('REPEATABLE READ');
    await runner.query(`DECLARE stream NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const rows: T[] = await runner.query(`FETCH ${CURSOR_FETCH} FROM stream`);
      await onRows(rows);
      if (rows.length < CURSOR_FETCH) break;
    }
    await runner.commitTransaction();
  } catch (e) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw e;
  } finally {
    await runner.release();
  }
}

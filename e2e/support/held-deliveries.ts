import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { E2eState, STATE_FILE } from './state';

/**
 * Brings the e-mail digest's hour forward for `alertIds` (issue #40: e-mails below critical, and every all-clear's, wait
 * for the next full hour for a person whose frequency is Immediate): once the dispatch (and every version's fan-out)
 * has written the held e-mails and queued their delayed jobs, makes them due now and runs those jobs at once, as the
 * hour would. What services/alerts/src/testing/held-deliveries.ts does for the integration specs, on the e2e system's
 * own database and Redis prefix. Returns how many e-mails it released.
 */
export async function sendHeldEmailsNow(alertIds: string[], timeoutMs = 20_000): Promise<number> {
  const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as E2eState;
  const dbUrl = new URL(state.adminUrl);
  dbUrl.pathname = `/${state.dbName}`;
  const pg = new Client({ connectionString: dbUrl.toString() });
  await pg.connect();
  // the queue of JobName.EmailSend (libs/contracts queues.ts) under the system's prefix (queuePrefix)
  const queue = new Queue('channel-email', {
    connection: { url: process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379' } as never,
    prefix: `${state.redisPrefix}:bull`,
  });
  const until = Date.now() + timeoutMs;
  const poll = async <T>(what: string, f: () => Promise<T | null>): Promise<T> => {
    for (;;) {
      const found = await f();
      if (found !== null) return found;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    await poll('the alerts dispatched, every version fanned out', async () => {
      const { rows } = await pg.query(
        `SELECT count(*)::int AS n FROM alerts.alerts a WHERE a.id = ANY($1::uuid[]) AND a.dispatched_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM alerts.alert_versions v WHERE v.alert_id = a.id AND v.kind <> 'original' AND v.dispatched_at IS NULL)`,
        [alertIds],
      );
      return rows[0].n === new Set(alertIds).size ? true : null;
    });
    const { rows: held } = await pg.query<{ id: string }>(
      `SELECT id FROM alerts.alert_deliveries WHERE alert_id = ANY($1::uuid[]) AND channel = 'email' AND status = 'pending' AND not_before > now()`,
      [alertIds],
    );
    if (!held.length) return 0;
    const ids = new Set(held.map((r) => r.id));
    const jobs = await poll('their delayed e-mail jobs', async () => {
      const delayed = (await queue.getDelayed()).filter((j) => (j.data.deliveryIds as string[]).some((id) => ids.has(id)));
      const covered = new Set(delayed.flatMap((j) => j.data.deliveryIds as string[]));
      return [...ids].every((id) => covered.has(id)) ? delayed : null;
    });
    await pg.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE id = ANY($1::uuid[])`, [[...ids]]);
    // (a job already started by another promotion, or by its own time, is left to run)
    for (const job of jobs) await job.promote().catch(() => undefined);
    return ids.size;
  } finally {
    await queue.close();
    await pg.end();
  }
}

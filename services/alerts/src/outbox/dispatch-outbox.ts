import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { JobIds, JobName } from '@beacon/contracts';
import { currentRequestId, JobQueue, OutboxRelay, within } from '@beacon/common';

/** How long a request waits for Redis to take a dispatch job before leaving it to the relay. */
const ENQUEUE_DEADLINE_MS = 1500;
/** The relay's pass when nothing wakes it sooner (Redis answering again wakes it at once). */
const RELAY_INTERVAL_MS = 2000;

class EnqueueTimeout extends Error {}

interface OutboxRow {
  alert_id: string;
  request_id: string | null;
}

/**
 * Dispatch intents (alerts.dispatch_outbox, written by a trigger in the transaction that makes an alert active) made
 * into alert.dispatch jobs. A request queues its own alert's job at once when Redis answers within
 * ENQUEUE_DEADLINE_MS; otherwise it answers anyway (the alert is committed) and the relay queues the job as soon as
 * Redis is ready again, on the reconnect itself or within RELAY_INTERVAL_MS. The job id is JobIds.dispatch, so an add
 * that raced another (a second replica, a slow add that reached Redis after its deadline) is a no-op, and the
 * dispatch itself is idempotent should a job have finished in between.
 */
@Injectable()
export class DispatchOutbox extends OutboxRelay<OutboxRow> {
  protected readonly logger = new Logger('DispatchOutbox');

  constructor(@InjectDataSource() ds: DataSource, queue: JobQueue) {
    super(ds, queue, RELAY_INTERVAL_MS);
  }

  /** Queues the alert's dispatch now if Redis takes it in time; otherwise its intent waits in the outbox. */
  async enqueue(alertId: string): Promise<void> {
    // The trigger recorded the intent of a new or sent alert; a re-drive (sweep, settings) records its own here.
    await this.ds.query(
      `INSERT INTO alerts.dispatch_outbox (alert_id, request_id) VALUES ($1, $2)
       ON CONFLICT (alert_id) DO UPDATE SET request_id = coalesce(alerts.dispatch_outbox.request_id, EXCLUDED.request_id)`,
      [alertId, currentRequestId() ?? null],
    );
    await this.ds.transaction(async (m) => {
      const [row] = await m.query(`SELECT alert_id, request_id FROM alerts.dispatch_outbox WHERE alert_id = $1 FOR UPDATE SKIP LOCKED`, [alertId]);
      // Locked: the relay is queuing it right now.
      if (row) await this.relay(m, row);
    });
  }

  protected lockBatch(m: EntityManager, limit: number): Promise<OutboxRow[]> {
    // SKIP LOCKED also keeps apart a request queuing its own alert (enqueue) and the relay
    return m.query(`SELECT alert_id, request_id FROM alerts.dispatch_outbox ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
  }

  protected async relayBatch(m: EntityManager, rows: OutboxRow[]): Promise<boolean> {
    for (const row of rows) if (!(await this.relay(m, row))) return false;
    return true;
  }

  /** Adds the job and deletes the row in `m`'s transaction; on failure keeps the row with the reason. */
  private async relay(m: EntityManager, { alert_id: alertId, request_id: requestId }: OutboxRow): Promise<boolean> {
    try {
      const added = await within(
        this.queue.add(
          JobName.AlertDispatch,
          { alertId, requestedAt: new Date().toISOString() },
          { jobId: JobIds.dispatch(alertId) },
          { requestId: requestId ?? undefined },
        ),
        ENQUEUE_DEADLINE_MS,
      );
      if (!added.done) throw new EnqueueTimeout(`Redis did not take the job within ${ENQUEUE_DEADLINE_MS} ms`);
      await m.query(`DELETE FROM alerts.dispatch_outbox WHERE alert_id = $1`, [alertId]);
      return true;
    } catch (e) {
      const reason = (e as Error).message.slice(0, 500);
      await m.query(`UPDATE alerts.dispatch_outbox SET attempts = attempts + 1, last_error = $2 WHERE alert_id = $1`, [alertId, reason]);
      this.logger.warn(`alert ${alertId}: dispatch not queued yet, queued when Redis answers: ${reason}`);
      return false;
    }
  }
}

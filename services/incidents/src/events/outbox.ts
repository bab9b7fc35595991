import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { JobName, JobPayloads } from '@beacon/contracts';
import { JobQueue } from '@beacon/common';

interface OutboxRow {
  id: string;
  job_name: JobName;
  job_id: string | null;
  payload: unknown;
}

const SWEEP_INTERVAL_MS = 2000;
const BATCH = 100;

/**
 * Events are written in the same transaction as the rows that cause them (`add`), then relayed to BullMQ:
 * right after the commit (`flush`) and by a periodic sweep for whatever a Redis outage left behind.
 * Delivery is at least once; every consumer is idempotent (deterministic job ids, keyed point awards).
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly queue: JobQueue,
  ) {}

  /** Records an event inside the caller's transaction. */
  async add<J extends JobName>(manager: EntityManager, name: J, data: JobPayloads[J], jobId?: string): Promise<void> {
    await manager.query(`INSERT INTO incidents.outbox (job_name, job_id, payload) VALUES ($1, $2, $3)`, [name, jobId ?? null, JSON.stringify(data)]);
  }

  /** Relays pending events now; never throws (the sweep retries). */
  async flush(): Promise<void> {
    if (this.stopped) return;
    // one drain at a time per process; a caller arriving mid-drain waits for it and then drains again
    while (this.draining) await this.draining;
    this.draining = this.drain().finally(() => (this.draining = undefined));
    await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const more = await this.ds.transaction(async (m) => {
          // SKIP LOCKED: replicas share the outbox without sending a row twice at once
          const rows: OutboxRow[] = await m.query(
            `SELECT id, job_name, job_id, payload FROM incidents.outbox ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
          );
          const sent: string[] = [];
          let failure: Error | undefined;
          for (const row of rows) {
            try {
              await this.queue.add(row.job_name, row.payload as never, { jobId: row.job_id ?? undefined });
              sent.push(row.id);
            } catch (e) {
              failure = e as Error;
              await m.query(`UPDATE incidents.outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [row.id, failure.message.slice(0, 500)]);
              break;
            }
          }
          if (sent.length) await m.query(`DELETE FROM incidents.outbox WHERE id = ANY($1::bigint[])`, [sent]);
          if (failure) this.logger.warn(`events not relayed yet, will retry: ${failure.message}`);
          return !failure && rows.length === BATCH;
        });
        if (!more) return;
      }
    } catch (e) {
      this.logger.warn(`outbox sweep failed, will retry: ${(e as Error).message}`);
    }
  }

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.flush(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** The last flush finishes before the database and the queue close. */
  async beforeApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.draining;
  }
}

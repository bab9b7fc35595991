import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { JobQueue } from './job-queue';

/** Rows locked per pass: one transaction each, so a long backlog is relayed in bounded steps. */
export const OUTBOX_BATCH = 100;

/**
 * The relay of a transactional outbox: rows written in the same transaction as the change that causes them, made into
 * jobs once that transaction has committed. A pass locks a batch of rows with FOR UPDATE SKIP LOCKED (replicas share
 * the outbox without relaying a row twice at once) and hands it to `relayBatch`, which queues what it can, deletes what
 * it queued and records why the rest failed, in the pass's transaction. Passes run one at a time per process: on
 * `flush()`, on a timer for whatever a Redis outage left behind, and at once when Redis is ready again. Delivery is at
 * least once; the jobs' consumers are idempotent.
 */
export abstract class OutboxRelay<Row> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected abstract readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private stopReady?: () => void;
  private draining?: Promise<void>;
  private stopped = false;

  protected constructor(
    protected readonly ds: DataSource,
    protected readonly queue: JobQueue,
    private readonly intervalMs = 2000,
  ) {}

  /** Up to `limit` waiting rows, oldest first, locked FOR UPDATE SKIP LOCKED in `m`'s transaction. */
  protected abstract lockBatch(m: EntityManager, limit: number): Promise<Row[]>;

  /** Queues the rows' jobs in `m`'s transaction; false when one failed (its reason recorded), which ends the pass. */
  protected abstract relayBatch(m: EntityManager, rows: Row[]): Promise<boolean>;

  /** Relays what waits now; never throws (the timer retries). */
  async flush(): Promise<void> {
    if (this.stopped) return;
    // a caller arriving mid-pass waits for it and then drains again: its own rows may have come after that pass's read
    while (this.draining) await this.draining;
    this.draining = this.drain().finally(() => (this.draining = undefined));
    await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const more = await this.ds.transaction(async (m) => {
          const rows = await this.lockBatch(m, OUTBOX_BATCH);
          return (await this.relayBatch(m, rows)) && rows.length === OUTBOX_BATCH;
        });
        if (!more) return;
      }
    } catch (e) {
      this.logger.warn(`outbox pass failed, will retry: ${(e as Error).message}`);
    }
  }

  onApplicationBootstrap() {
    this.stopReady = this.queue.onReady(() => void this.flush());
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** The last pass finishes before the database and the queue close. */
  async beforeApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.stopReady?.();
    await this.draining;
  }
}

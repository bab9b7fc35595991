import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { JobName, JobPayloads } from '@beacon/contracts';
import { JobQueue, OutboxRelay } from '@beacon/common';

interface OutboxRow {
  id: string;
  job_name: JobName;
  job_id: string | null;
  payload: unknown;
}

/**
 * Events are written in the same transaction as the rows that cause them (`add`), then relayed to BullMQ
 * (OutboxRelay): right after the commit (`flush`), when Redis is ready again, and by a periodic pass for whatever a
 * Redis outage left behind. Every consumer is idempotent (deterministic job ids, keyed point awards).
 */
@Injectable()
export class Outbox extends OutboxRelay<OutboxRow> {
  protected readonly logger = new Logger('Outbox');

  constructor(@InjectDataSource() ds: DataSource, queue: JobQueue) {
    super(ds, queue);
  }

  /** Records an event inside the caller's transaction. */
  async add<J extends JobName>(manager: EntityManager, name: J, data: JobPayloads[J], jobId?: string): Promise<void> {
    await manager.query(`INSERT INTO incidents.outbox (job_name, job_id, payload) VALUES ($1, $2, $3)`, [name, jobId ?? null, JSON.stringify(data)]);
  }

  protected lockBatch(m: EntityManager, limit: number): Promise<OutboxRow[]> {
    return m.query(`SELECT id, job_name, job_id, payload FROM incidents.outbox ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
  }

  protected async relayBatch(m: EntityManager, rows: OutboxRow[]): Promise<boolean> {
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
    return !failure;
  }
}

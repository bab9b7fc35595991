import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The channel batch sizes an alert's dispatch cut its deliveries with. A batch's job id and an SMS batch's
 * idempotency key are its number in that plan; a re-run of the dispatch after a crash and the sweep's re-drive of
 * deliveries whose jobs were lost plan again from the rows, and must find the same batches under the same numbers
 * even if PUSH/SMS/EMAIL_BATCH_SIZE changed since, or a job still in Redis would get a twin over the same rows.
 * Null for alerts dispatched before this column (they plan with the current sizes).
 */
export class DispatchBatchSizes1764400000000 implements MigrationInterface {
  name = 'DispatchBatchSizes1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN batch_sizes jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN batch_sizes`);
  }
}

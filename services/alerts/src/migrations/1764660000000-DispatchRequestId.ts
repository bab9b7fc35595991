import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request an alert's dispatch ran for, kept with the batch sizes it planned with: when Redis loses the channel
 * jobs (and the request id they carried), the sweep queues them again under that id, so the re-driven deliveries'
 * log lines still lead to the request that sent the alert.
 */
export class DispatchRequestId1764660000000 implements MigrationInterface {
  name = 'DispatchRequestId1764660000000';

  async up(q: QueryRunner) {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN dispatch_request_id text`);
  }

  async down(q: QueryRunner) {
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN dispatch_request_id`);
  }
}

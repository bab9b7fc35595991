import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an alert's request said, as a digest, so that an Idempotency-Key sent again with a different body is refused
 * (422) instead of silently answered with the first alert. Alerts created before have none and match any retry.
 */
export class IdempotencyFingerprint1764300000000 implements MigrationInterface {
  name = 'IdempotencyFingerprint1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN idempotency_fingerprint text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN idempotency_fingerprint`);
  }
}

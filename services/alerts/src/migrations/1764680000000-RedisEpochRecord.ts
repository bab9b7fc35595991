import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Redis epoch the dispatchers last saw (RedisEpoch), kept where it outlives Redis: an epoch recorded here and
 * missing from Redis means Redis lost its data, while a database with none is a first start, with nothing in flight
 * to re-drive. One row at most.
 */
export class RedisEpochRecord1764680000000 implements MigrationInterface {
  name = 'RedisEpochRecord1764680000000';

  async up(q: QueryRunner) {
    await q.query(`
      CREATE TABLE alerts.redis_epoch (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        epoch text NOT NULL,
        seen_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner) {
    await q.query(`DROP TABLE alerts.redis_epoch`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Everyone an alert concerned when it went out, reached by a channel or not (the people whose open screens the
 * dispatch told), beside `recipients` (those a channel reaches): the difference is who no channel could warn. Null for
 * alerts dispatched before this column, and until the dispatch has told them.
 */
export class ConcernedCount1764500000002 implements MigrationInterface {
  name = 'ConcernedCount1764500000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN concerned integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN concerned`);
  }
}

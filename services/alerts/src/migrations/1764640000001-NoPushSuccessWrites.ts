import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * push_subscriptions.last_success_at goes: nothing read it, and keeping it meant one row write per successful push
 * (at 1M subscribers, a quarter of a million updated rows per alert, each a new tuple and its WAL). A success now
 * writes only to an endpoint that was failing, to start its failure count afresh (SendTargetsRepository).
 */
export class NoPushSuccessWrites1764640000001 implements MigrationInterface {
  name = 'NoPushSuccessWrites1764640000001';

  async up(q: QueryRunner) {
    await q.query(`ALTER TABLE alerts.push_subscriptions DROP COLUMN last_success_at`);
  }

  async down(q: QueryRunner) {
    // The times are gone; the column comes back empty, as for a subscription that has not yet taken a push.
    await q.query(`ALTER TABLE alerts.push_subscriptions ADD COLUMN last_success_at timestamptz`);
  }
}

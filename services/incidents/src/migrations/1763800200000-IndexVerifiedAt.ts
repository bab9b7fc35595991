import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public map shows reports verified in the last 24 hours. An admin's verification is moderated_at;
 * an auto-approved report is verified as it is created and has no moderated_at. The expression must stay
 * identical to VERIFIED_AT in incidents.repository.ts, or the planner cannot use this index.
 */
export class IndexVerifiedAt1763800200000 implements MigrationInterface {
  name = 'IndexVerifiedAt1763800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX incidents_verified_at_idx ON incidents.incidents ((coalesce(moderated_at, created_at)) DESC) WHERE status = 'verified'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX incidents.incidents_verified_at_idx`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The moderation queue shows who reported: the incidents service knows a reporter only by the access token they
 * reported with, so the e-mail it carried is kept with the report. Nullable: reports made before this migration
 * have none (the service cannot look e-mails up), and the screen says so.
 *
 * The queue also counts each reporter's reports by status (their track record): the existing
 * incidents_reporter_created_idx (reported_by, created_at DESC) serves that lookup.
 */
export class ReporterEmail1763800400000 implements MigrationInterface {
  name = 'ReporterEmail1763800400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE incidents.incidents ADD COLUMN reporter_email text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE incidents.incidents DROP COLUMN reporter_email`);
  }
}

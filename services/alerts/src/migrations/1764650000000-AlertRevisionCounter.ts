import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An alert's revision (issue #36): 1 when made, one more at every write of its text, area or status, drafts included
 * (a draft keeps version 1 however often it is edited). An edit names the revision it was made on and is refused when
 * the alert has moved on, so a colleague's edit is never overwritten unseen. Every such write sets updated_at, the
 * ones of other features too (a CAP feed replacing a draft, the expiry sweep), so the trigger bumps the revision
 * whenever updated_at changes, and the dispatcher's bookkeeping (recipients, counts) leaves it alone.
 */
export class AlertRevisionCounter1764650000000 implements MigrationInterface {
  name = 'AlertRevisionCounter1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN revision integer NOT NULL DEFAULT 1`);
    await q.query(`
      CREATE FUNCTION alerts.bump_alert_revision() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.revision := OLD.revision + 1;
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER alerts_revision BEFORE UPDATE ON alerts.alerts FOR EACH ROW
       WHEN (NEW.updated_at IS DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION alerts.bump_alert_revision()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER alerts_revision ON alerts.alerts`);
    await q.query(`DROP FUNCTION alerts.bump_alert_revision()`);
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN revision`);
  }
}

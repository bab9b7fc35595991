import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts to contact groups (issue #42): an alert targets its area, contact groups, or both (the union).
 *
 * - `group_ids`: the contact groups it targets, in the order chosen, '{}' when none. No foreign key: a group may be
 *   deleted while an alert still names it, and is then simply left out (its members are read when the dispatcher
 *   selects recipients, as homes are). At most ALERT_GROUPS_MAX (20), as the API refuses more with a 400.
 * - Without an area and with groups, an alert goes to the groups' members only; with neither it is for everyone.
 *
 * Down: an alert to groups alone that could still go out (scheduled, awaiting approval, in effect) is cancelled first:
 * without the column it would be an alert for everyone.
 */
export class AlertGroups1764830000000 implements MigrationInterface {
  name = 'AlertGroups1764830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN group_ids uuid[] NOT NULL DEFAULT '{}',
      ADD CONSTRAINT alerts_group_ids_max CHECK (cardinality(group_ids) <= 20)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE alerts.alerts SET status = 'cancelled', updated_at = now()
      WHERE cardinality(group_ids) > 0 AND lat IS NULL AND status IN ('scheduled', 'pending_approval', 'active')`);
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_group_ids_max, DROP COLUMN group_ids`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The recurring test alert (issue #38). test_schedule: Admin Settings' one schedule, off until an admin turns it on;
 * its row always exists, so the sweep's claim is one conditional UPDATE of next_run_at. test_group: the staff who
 * opted in (the alerts service has no list of staff: each names themselves), with the e-mail they signed in with, for
 * the settings list. test_alert_recipients: whom each test alert sent to the group is addressed to, as the group
 * was when it came due (eligibility reads it for source 'test', beside the creator of a one-off test).
 */
export class RecurringTestAlert1764740000000 implements MigrationInterface {
  name = 'RecurringTestAlert1764740000000';

  async up(q: QueryRunner) {
    await q.query(`
      CREATE TABLE alerts.test_schedule (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        frequency text NOT NULL DEFAULT 'off' CHECK (frequency IN ('off', 'daily', 'weekly')),
        weekday smallint NOT NULL DEFAULT 3 CHECK (weekday BETWEEN 0 AND 6),
        local_time text NOT NULL DEFAULT '10:00' CHECK (local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        time_zone text NOT NULL DEFAULT 'UTC',
        channels text[] NOT NULL DEFAULT '{}' CHECK (channels <@ ARRAY['push','sms','email']::text[]),
        next_run_at timestamptz,
        last_run_at timestamptz,
        last_alert_id uuid REFERENCES alerts.alerts (id) ON DELETE SET NULL,
        last_recipients integer,
        last_skipped text CHECK (last_skipped IN ('no_members', 'no_channels')),
        updated_by uuid,
        updated_by_email text,
        updated_at timestamptz,
        CONSTRAINT test_schedule_next_run CHECK ((frequency = 'off') = (next_run_at IS NULL))
      )`);
    await q.query(`INSERT INTO alerts.test_schedule DEFAULT VALUES`);
    await q.query(`
      CREATE TABLE alerts.test_group (
        user_id uuid PRIMARY KEY,
        email text,
        joined_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE alerts.test_alert_recipients (
        alert_id uuid NOT NULL REFERENCES alerts.alerts (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        PRIMARY KEY (alert_id, user_id)
      )`);
  }

  async down(q: QueryRunner) {
    await q.query(`DROP TABLE alerts.test_alert_recipients`);
    await q.query(`DROP TABLE alerts.test_group`);
    await q.query(`DROP TABLE alerts.test_schedule`);
  }
}

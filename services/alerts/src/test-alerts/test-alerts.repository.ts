import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DELIVERY_CHANNELS, DeliveryChannel, TEST_ALERT_MESSAGE, TestGroupMember, TestGroupMembership, TestRun, TestSchedule } from '@beacon/contracts';
import { ALERT_COLUMNS_SQL } from '../alerts/alert.rows';
import { Actor, AuditRepository, SYSTEM } from '../alerts/audit.repository';
import type { PublicAlertRow } from '../cap/cap.repository';
import { reachableOn } from '../deliveries/eligibility.sql';

interface ScheduleRow {
  frequency: TestSchedule['frequency'];
  weekday: number;
  local_time: string;
  time_zone: string;
  channels: DeliveryChannel[];
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_alert_id: string | null;
  last_recipients: number | null;
  last_skipped: TestRun['skipped'];
  updated_by: string | null;
  updated_by_email: string | null;
  updated_at: Date | null;
}

/** The schedule as an admin sets it; nextRunAt computed from it (next-run.ts). */
export type ScheduleSettings = Pick<TestSchedule, 'frequency' | 'weekday' | 'time' | 'timeZone' | 'channels'>;

/** A schedule as read for a run: its settings, and the run it claims (next_run_at as read). */
export interface DueSchedule extends ScheduleSettings {
  nextRunAt: Date;
}

/** What a claimed run did: the alert it made (null when none went out) and whom it addresses. */
export interface ClaimedRun {
  occurrence: Date;
  alertId: string | null;
  recipients: number;
  skipped: TestRun['skipped'];
}

/** A recurring test alert lasts this long: long enough to arrive on every channel, gone before the next. */
const TEST_ALERT_MINUTES = 60;

const toIso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const settingsOf = (row: ScheduleRow): ScheduleSettings => ({
  frequency: row.frequency,
  weekday: row.weekday,
  time: row.local_time,
  timeZone: row.time_zone,
  channels: row.channels,
});

/**
 * The recurring test alert's tables (RecurringTestAlert migration): the one schedule row, the staff test group, and
 * each run's recipients. A run is claimed, made and audited in one transaction (claimRun), so it happens once.
 */
@Injectable()
export class TestAlertsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly audit: AuditRepository,
  ) {}

  async schedule(): Promise<TestSchedule> {
    const [row]: ScheduleRow[] = await this.ds.query(`SELECT * FROM alerts.test_schedule WHERE id = 1`);
    return {
      ...settingsOf(row),
      nextRunAt: toIso(row.next_run_at),
      lastRun: row.last_run_at
        ? { at: toIso(row.last_run_at)!, alertId: row.last_alert_id, recipients: row.last_recipients ?? 0, skipped: row.last_skipped }
        : null,
      updatedAt: toIso(row.updated_at),
      updatedBy: row.updated_by_email ?? row.updated_by,
    };
  }

  async saveSchedule(s: ScheduleSettings, nextRunAt: Date | null, by: Actor): Promise<void> {
    await this.ds.query(
      `UPDATE alerts.test_schedule SET frequency = $1, weekday = $2, local_time = $3, time_zone = $4, channels = $5::text[], next_run_at = $6,
         updated_by = $7, updated_by_email = $8, updated_at = now()
       WHERE id = 1`,
      [s.frequency, s.weekday, s.time, s.timeZone, s.channels, nextRunAt, by.id, by.email ?? null],
    );
  }

  /** The schedule when a run of it has come due (by the database's clock), else null. */
  async due(): Promise<DueSchedule | null> {
    const [row]: ScheduleRow[] = await this.ds.query(`SELECT * FROM alerts.test_schedule WHERE id = 1 AND frequency <> 'off' AND next_run_at <= now()`);
    if (!row) return null;
    return { ...settingsOf(row), nextRunAt: new Date(row.next_run_at!) };
  }

  /**
   * The run of `due` claimed, by one conditional UPDATE of next_run_at (to `following`): of concurrent sweeps only the
   * one that still finds next_run_at as it read it moves it; the others change nothing and get null. A save of the
   * schedule meanwhile sets a next_run_at ahead of now, so a sweep that read the old one claims nothing either.
   * In the same transaction, the run's alert (source 'test', by Beacon, audited 'created' and 'sent') addressed to the
   * test group as it is now, on `channels`; its dispatch intent is committed with it (the outbox trigger). No member or
   * no channel: the run is recorded as skipped, and nothing is sent.
   */
  async claimRun(due: DueSchedule, following: Date, channels: DeliveryChannel[]): Promise<ClaimedRun | null> {
    return this.ds.transaction(async (m) => {
      const [claimed] = await m.query(
        `UPDATE alerts.test_schedule SET next_run_at = $1, last_run_at = now()
         WHERE id = 1 AND frequency <> 'off' AND date_trunc('milliseconds', next_run_at) = $2 AND next_run_at <= now()
         RETURNING id`,
        [following, due.nextRunAt],
      );
      if (!claimed.length) return null;
      const [{ members }] = await m.query(`SELECT count(*)::int AS members FROM alerts.test_group`);
      const skipped: TestRun['skipped'] = !members ? 'no_members' : !channels.length ? 'no_channels' : null;
      const alertId = skipped ? null : await this.insertRunAlert(m, due.nextRunAt, channels);
      const recipients = alertId ? members : 0;
      await m.query(`UPDATE alerts.test_schedule SET last_alert_id = $1, last_recipients = $2, last_skipped = $3 WHERE id = 1`, [alertId, recipients, skipped]);
      return { occurrence: due.nextRunAt, alertId, recipients, skipped };
    });
  }

  private async insertRunAlert(m: EntityManager, occurrence: Date, channels: DeliveryChannel[]): Promise<string> {
    const [{ id }] = await m.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, source, created_by, expires_at, sent_at)
       VALUES ('Scheduled test alert', $1, 'Test', 'low', 'public_safety', $2::text[], 'active', 'test', NULL,
               now() + make_interval(mins => $3), now())
       RETURNING id`,
      [TEST_ALERT_MESSAGE, channels, TEST_ALERT_MINUTES],
    );
    await m.query(`INSERT INTO alerts.test_alert_recipients (alert_id, user_id) SELECT $1, user_id FROM alerts.test_group`, [id]);
    const details = { source: 'test', status: 'active', schedule: occurrence.toISOString() };
    await this.audit.record(m, [id], 'created', SYSTEM, details);
    await this.audit.record(m, [id], 'sent', SYSTEM, { schedule: occurrence.toISOString() });
    return id;
  }

  /** The staff test group, first to join first, each with the channels of `channels` that reach them now. */
  async members(channels: readonly DeliveryChannel[]): Promise<TestGroupMember[]> {
    const rows: { user_id: string; email: string | null; joined_at: Date; reach: boolean[] }[] = await this.ds.query(
      `SELECT g.user_id, g.email, g.joined_at,
              ARRAY[${DELIVERY_CHANNELS.map((c) => `coalesce(${reachableOn(c, 'p')}, false)`).join(', ')}] AS reach
       FROM alerts.test_group g LEFT JOIN alerts.user_preferences p ON p.user_id = g.user_id AND NOT p.external
       ORDER BY g.joined_at, g.user_id`,
    );
    return rows.map((r) => ({
      userId: r.user_id,
      email: r.email,
      joinedAt: new Date(r.joined_at).toISOString(),
      reachableBy: DELIVERY_CHANNELS.filter((c, i) => r.reach[i] && channels.includes(c)),
    }));
  }

  async membership(userId: string): Promise<TestGroupMembership> {
    const [row] = await this.ds.query(`SELECT joined_at FROM alerts.test_group WHERE user_id = $1`, [userId]);
    return { member: !!row, joinedAt: toIso(row?.joined_at ?? null) };
  }

  /** Joins (keeping the first joining time; the e-mail as signed in now). */
  async join(userId: string, email: string | null): Promise<void> {
    await this.ds.query(`INSERT INTO alerts.test_group (user_id, email) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email`, [
      userId,
      email,
    ]);
  }

  /** Whether `userId` was in the group. */
  async leave(userId: string): Promise<boolean> {
    const [, affected] = await this.ds.query(`DELETE FROM alerts.test_group WHERE user_id = $1`, [userId]);
    return affected > 0;
  }

  /** A test alert that went out, as CAP renders it (never in the public feed: cap.repository's PUBLISHED_SQL). */
  async testAlertForCap(id: string): Promise<PublicAlertRow | null> {
    const [row] = await this.ds.query(
      `SELECT ${ALERT_COLUMNS_SQL}, CASE WHEN a.status = 'cancelled' THEN a.updated_at END AS ended_at
       FROM alerts.alerts a WHERE a.id = $1 AND a.source = 'test' AND a.sent_at IS NOT NULL`,
      [id],
    );
    return row ?? null;
  }
}

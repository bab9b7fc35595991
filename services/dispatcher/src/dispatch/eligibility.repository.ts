import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AlertCategory, DeliveryChannel, Severity } from '@beacon/contracts';
import { eligibilityWhere } from '../../../alerts/src/alerts/eligibility.sql';
import { stripRanges } from './geo-strips';

export interface DispatchAlert {
  id: string;
  severity: Severity;
  category: AlertCategory;
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  channels: DeliveryChannel[];
  source: 'admin' | 'incident' | 'test';
  created_by: string | null;
}

export interface BatchPlan {
  channel: DeliveryChannel;
  notBefore: Date | null;
  ids: string[];
}

/** Collects bind parameters as a statement is written; a value bound once is reused by name. */
export class SqlParams {
  readonly values: unknown[] = [];
  private readonly named = new Map<string, string>();

  bind(name: string, value: unknown, type: string): string {
    let ref = this.named.get(name);
    if (!ref) {
      this.values.push(value);
      ref = `$${this.values.length}::${type}`;
      this.named.set(name, ref);
    }
    return ref;
  }
}

/**
 * Eligibility as one SQL statement over alerts.user_preferences, returning (user_id, channel_mask, may_hold).
 * With a located alert, located users are read from the covering index on (geo_strip, lng): one index-only
 * range per 0.01-degree latitude strip of the circle (stripRanges contains the circle; it never cuts a user the
 * exact check would keep), and unlocated users from their own covering index; the exact rule, haversine
 * included, is eligibilityWhere's. A test alert (admin settings, Send Test Alert) reaches its creator only.
 */
export function eligibleUsersSql(alert: Omit<DispatchAlert, 'id' | 'channels'>, params: SqlParams): string {
  const columns = 'p.user_id, p.channel_mask, p.may_hold';
  if (alert.source === 'test') return `SELECT ${columns} FROM alerts.user_preferences p WHERE p.user_id = ${params.bind('creator', alert.created_by, 'uuid')}`;
  const a = {
    severity: params.bind('severity', alert.severity, 'text'),
    category: params.bind('category', alert.category, 'text'),
    lat: params.bind('lat', alert.lat, 'float8'),
    lng: params.bind('lng', alert.lng, 'float8'),
    radiusKm: params.bind('radius', alert.radius_km, 'float8'),
  };
  const where = eligibilityWhere(a);
  if (alert.lat === null || alert.lng === null || alert.radius_km === null) return `SELECT ${columns} FROM alerts.user_preferences p WHERE ${where}`;
  const ranges = stripRanges({ lat: alert.lat, lng: alert.lng }, alert.radius_km);
  return `SELECT ${columns}
      FROM unnest(${params.bind('strips', ranges.map((r) => r.strip), 'int[]')}, ${params.bind('lng_from', ranges.map((r) => r.lngFrom), 'float8[]')},
                  ${params.bind('lng_to', ranges.map((r) => r.lngTo), 'float8[]')}) AS r(strip, lng_from, lng_to)
      JOIN alerts.user_preferences p ON p.geo_strip = r.strip AND p.lng BETWEEN r.lng_from AND r.lng_to
      WHERE p.lat IS NOT NULL AND ${where}
    UNION ALL
    SELECT ${columns} FROM alerts.user_preferences p WHERE p.lat IS NULL AND ${where}`;
}

/**
 * When an alert sent at `at` may reach eligible user `e` (a row of eligibleUsersSql) on any channel, NULL for at
 * once: the digest slot of their frequency, past a quiet weekend and their quiet hours (alerts.hold_until).
 * Critical and test alerts are never held, nor are users who chose none of these, so only the others' rows are
 * read. may_hold does not cover the weekend setting (see the WeekendHold migration): while it is a weekend day
 * somewhere, those users are found through their partial index.
 */
export function holdUntilSql(alert: Pick<DispatchAlert, 'severity' | 'source'>, params: SqlParams, at: Date): string {
  const neverHeld = params.bind('never_held', alert.severity === 'critical' || alert.source === 'test', 'boolean');
  const mayHold = weekendSomewhere(at)
    ? `(e.may_hold OR EXISTS (SELECT 1 FROM alerts.user_preferences w WHERE w.user_id = e.user_id AND w.weekend_enabled))`
    : 'e.may_hold';
  return `CASE WHEN ${neverHeld} OR NOT ${mayHold} THEN NULL ELSE (
      SELECT alerts.hold_until(${params.bind('at', at.toISOString(), 'timestamptz')}, false, h.frequency, h.quiet_enabled, h.quiet_start,
                               h.quiet_end, h.time_zone, h.weekend_enabled)
      FROM alerts.user_preferences h WHERE h.user_id = e.user_id) END`;
}

/** A half-open range of user ids, [from, to); an absent end is unbounded. */
export interface UserIdRange {
  from: string | null;
  to: string | null;
}

/** `parts` equal ranges covering every uuid (user ids are random, so each holds about the same number of users). */
export function userIdRanges(parts: number): UserIdRange[] {
  const n = Math.max(1, Math.floor(parts));
  const bounds = Array.from({ length: n - 1 }, (_, i) => {
    const hex = ((BigInt(i + 1) << 128n) / BigInt(n)).toString(16).padStart(32, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
  return Array.from({ length: n }, (_, i) => ({ from: i ? bounds[i - 1] : null, to: i < n - 1 ? bounds[i] : null }));
}

/**
 * Whether it is Saturday or Sunday in some time zone at `at`. Local dates at one instant run from UTC-12's to
 * UTC+14's (at most 26 hours apart), so a weekend day is among them exactly when one of those two is one.
 */
export function weekendSomewhere(at: Date): boolean {
  const weekend = (offsetHours: number) => [0, 6].includes(new Date(at.getTime() + offsetHours * 3_600_000).getUTCDay());
  return weekend(14) || weekend(-12);
}

/** Channel bits of user_preferences.channel_mask (FastEligibility migration). */
const CHANNEL_BIT: Record<DeliveryChannel, number> = { push: 1, sms: 2, email: 4 };

/** Rows a cursor reads per round trip. */
const PLAN_FETCH = 5000;

/** Users per live "new alert" emit (each group is one message to the gateways, see LiveEvents). */
const ANNOUNCE_GROUP = 1000;

@Injectable()
export class EligibilityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async alert(id: string): Promise<(DispatchAlert & { status: string; expired: boolean; dispatched_at: Date | null }) | null> {
    const [row] = await this.ds.query(
      `SELECT id, severity, category, lat, lng, radius_km, channels, source, created_by, status, dispatched_at,
              (expires_at IS NOT NULL AND expires_at <= now()) AS expired
       FROM alerts.alerts WHERE id = $1`,
      [id],
    );
    return row ?? null;
  }

  /** The eligible users' ids (what the agreement test compares with libs/geo isEligible). */
  async eligibleUserIds(alert: DispatchAlert): Promise<string[]> {
    const params = new SqlParams();
    const rows = await this.ds.query(`SELECT e.user_id FROM (${eligibleUsersSql(alert, params)}) e`, params.values);
    return rows.map((r: { user_id: string }) => r.user_id);
  }

  /**
   * One statement: eligible users x the alert's channels the user enabled and can be reached on, inserted
   * as pending deliveries, each with the time it may go out at `at` (digest frequency, quiet weekends, quiet
   * hours; critical alerts are never held, nor are users who chose none of these, so only the others'
   * rows are read for hold_until). Rows go in user order, so the unique key's and the user index's pages are
   * written in sequence rather than at random. The first run is a plain insert; a re-run after a crash
   * (rows already there) skips existing rows with ON CONFLICT DO NOTHING, which costs about twice as much per row.
   * With `parts` > 1 the users are split into that many ranges of user id, inserted by concurrent statements on
   * their own connections: PostgreSQL runs one INSERT on one core, and the ranges touch disjoint parts of the
   * unique key. A crash between them leaves some ranges written; the re-run's ON CONFLICT completes the rest.
   * Returns the number of rows inserted.
   */
  async insertDeliveries(alert: DispatchAlert, parts = 1, at = new Date()): Promise<number> {
    const [{ rerun }] = await this.ds.query(`SELECT EXISTS (SELECT 1 FROM alerts.alert_deliveries WHERE alert_id = $1) AS rerun`, [alert.id]);
    const counts = await Promise.all(userIdRanges(alert.source === 'test' ? 1 : parts).map((range) => this.insertRange(alert, range, rerun, at)));
    return counts.reduce((a, b) => a + b, 0);
  }

  private async insertRange(alert: DispatchAlert, range: UserIdRange, rerun: boolean, at: Date): Promise<number> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const holdUntil = holdUntilSql(alert, params, at);
    const alertId = params.bind('alert', alert.id, 'uuid');
    const inRange = [
      range.from ? `e.user_id >= ${params.bind('from', range.from, 'uuid')}` : null,
      range.to ? `e.user_id < ${params.bind('to', range.to, 'uuid')}` : null,
    ].filter(Boolean);
    const runner = this.ds.createQueryRunner();
    try {
      const result = await runner.query(
      `WITH e AS (${eligible})
       INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, not_before)
       SELECT ${alertId}, e.user_id, c.channel, ${holdUntil}
       FROM e CROSS JOIN LATERAL (VALUES
           ('push', e.channel_mask & ${CHANNEL_BIT.push} <> 0 AND EXISTS (SELECT 1 FROM alerts.push_subscriptions s WHERE s.user_id = e.user_id)),
           ('sms', e.channel_mask & ${CHANNEL_BIT.sms} <> 0),
           ('email', e.channel_mask & ${CHANNEL_BIT.email} <> 0)) AS c(channel, reachable)
       WHERE c.reachable AND c.channel = ANY(${params.bind('channels', alert.channels, 'text[]')})${inRange.map((c) => ` AND ${c}`).join('')}
       ORDER BY e.user_id, c.channel
       ${rerun ? 'ON CONFLICT (alert_id, user_id, channel) DO NOTHING' : ''}`,
        params.values,
        true,
      );
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /** Records the recipient count and the end of eligibility. */
  async markDispatched(alertId: string): Promise<number> {
    const [rows] = await this.ds.query(
      `UPDATE alerts.alerts a SET recipients = (SELECT count(DISTINCT user_id) FROM alerts.alert_deliveries d WHERE d.alert_id = a.id),
              dispatched_at = coalesce(a.dispatched_at, now()), updated_at = now()
       WHERE a.id = $1 RETURNING a.recipients`,
      [alertId],
    );
    return rows[0]?.recipients ?? 0;
  }

  /**
   * The channel batches, deterministic for a given set of rows, streamed so memory does not grow with the
   * alert's size: deliveries are read in (user, channel) order through the unique key, grouped per channel and
   * release time, and cut every `size(channel)`; a re-run after a crash plans the same batches with the same
   * ids. `onBatch` receives each batch as it fills, then the remainders.
   */
  async planBatches(alertId: string, sizes: Record<DeliveryChannel, number>, onBatch: (b: BatchPlan) => Promise<void>): Promise<void> {
    const open = new Map<string, BatchPlan>();
    await this.stream<{ id: string; channel: DeliveryChannel; not_before: Date | null }>(
      `SELECT id, channel, not_before FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id, channel`,
      [alertId],
      async (rows) => {
        for (const r of rows) {
          const key = `${r.channel}|${r.not_before ? r.not_before.toISOString() : ''}`;
          let b = open.get(key);
          if (!b) open.set(key, (b = { channel: r.channel, notBefore: r.not_before, ids: [] }));
          b.ids.push(r.id);
          if (b.ids.length >= sizes[r.channel]) {
            open.delete(key);
            await onBatch(b);
          }
        }
      },
    );
    for (const key of [...open.keys()].sort()) await onBatch(open.get(key)!);
  }

  /**
   * Every user the alert concerns, once, whether or not a channel reaches them (the open screen is a channel
   * too), in groups, with whether the alert is held for them at `at`: by the very rule that gave their deliveries
   * their not_before (holdUntilSql), so a user with deliveries is held exactly when all of them wait, and one
   * without is held when their quiet hours, digest frequency or quiet weekend would have held a message.
   * Streamed like planBatches: one more pass over the eligible users, never a query per user.
   */
  async announce(alert: DispatchAlert, at: Date, onUsers: (userIds: string[], held: boolean) => void): Promise<number> {
    const params = new SqlParams();
    const eligible = eligibleUsersSql(alert, params);
    const held = `coalesce(${holdUntilSql(alert, params, at)} > ${params.bind('at', at.toISOString(), 'timestamptz')}, false)`;
    const groups: Record<'held' | 'now', string[]> = { held: [], now: [] };
    let n = 0;
    await this.stream<{ user_id: string; held: boolean }>(`SELECT e.user_id, ${held} AS held FROM (${eligible}) e`, params.values, (rows) => {
      for (const r of rows) {
        const group = groups[r.held ? 'held' : 'now'];
        group.push(r.user_id);
        if (group.length >= ANNOUNCE_GROUP) onUsers(group.splice(0), r.held);
      }
      n += rows.length;
    });
    if (groups.now.length) onUsers(groups.now, false);
    if (groups.held.length) onUsers(groups.held, true);
    return n;
  }

  /** Runs `sql` through a cursor in one snapshot, handing `onRows` each round trip's rows. */
  private async stream<T>(sql: string, params: unknown[], onRows: (rows: T[]) => Promise<void> | void): Promise<void> {
    const runner = this.ds.createQueryRunner('slave');
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      await runner.query(`DECLARE stream NO SCROLL CURSOR FOR ${sql}`, params);
      for (;;) {
        const rows: T[] = await runner.query(`FETCH ${PLAN_FETCH} FROM stream`);
        await onRows(rows);
        if (rows.length < PLAN_FETCH) break;
      }
      await runner.commitTransaction();
    } catch (e) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw e;
    } finally {
      await runner.release();
    }
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AlertCategory, DeliveryChannel, Severity } from '@beacon/contracts';
import { expiredSql } from '../alerts/alert.rows';
import { streamRows } from '../alerts/cursor';
import { eligibleUsersSql, holdUntilSql, SqlParams } from '../alerts/eligibility.sql';

// The eligibility SQL lives with the alerts service (its audience query reads it too); bench/dispatch imports it from here.
export { eligibleUsersSql, holdUntilSql, SqlParams, weekendSomewhere } from '../alerts/eligibility.sql';

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

/** Channel bits of user_preferences.channel_mask (FastEligibility migration). */
const CHANNEL_BIT: Record<DeliveryChannel, number> = { push: 1, sms: 2, email: 4 };

@Injectable()
export class EligibilityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async alert(id: string): Promise<(DispatchAlert & { status: string; expired: boolean; dispatched_at: Date | null }) | null> {
    const [row] = await this.ds.query(
      `SELECT id, severity, category, lat, lng, radius_km, channels, source, created_by, status, dispatched_at,
              ${expiredSql('alerts')} AS expired
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
    await streamRows<{ id: string; channel: DeliveryChannel; not_before: Date | null }>(
      this.ds,
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
}
